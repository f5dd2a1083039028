// Test-only: the compare view's backend in memory, for the FakePlatform. Scenarios with whole-value
// history, dirty state, saves and the backend's main checks against the template; comparisons that
// stream a real report's events (the one `unfold compare --json` wrote for the example and
// lookup-first, kept in fixtures/ and checked against the core by its tests), can be held midway
// to test progress and cancel, and answer each model call's request and response; comparisons
// under any adapters (that report's runs of the adapters asked, in order; an adapter it has no run
// for runs as its dynamic run would, its injections delivered that adapter's way), live ones
// without a baseline and with the backend's checks of the profile, the adapters and the key; provider profiles saved with the core's checks;
// the models runs can be priced as (a list a test sets); and a run history (that report's three runs
// kept as scripted runs, and two live runs) to list with the core's filters, read, compare and
// export as a trace. Scenario checks and refused profiles the backend's answers were recorded for
// (recordings.ts) are played from those answers.
import type {
  AdapterKind,
  CallRequest,
  CompareProgress,
  ForkAnswer,
  ForkRequest,
  ComparisonReport,
  JsonValue,
  Lane,
  LiveModel,
  Outcome,
  PlatformError,
  HostProfile,
  HostView,
  PricedModels,
  ProblemView,
  ProfilesView,
  ProviderProfile,
  RecentFile,
  ReportFormat,
  ChartImage,
  RequestShape,
  RunComparison,
  RunEvent,
  RunFilter,
  RunSummary,
  Scenario,
  ScenarioView,
  StoredRun,
  Template,
} from "../platform";
import reportText from "./fixtures/lookup-first.report.json?raw";

/** The host presets Unfold ships, read from their files as the core reads them. */
const HOST_PRESET_FILES = import.meta.glob<string>("../../../crates/unfold-documents/data/hosts/*.host.json", {
  eager: true,
  query: "?raw",
  import: "default",
});
import { recordedAnswer } from "./recordings";
import { runLane } from "../runs/timeline";

/** The report of the example template and examples/lookup-first.scenario.json. */
export function lookupFirstReport(): ComparisonReport {
  return JSON.parse(reportText) as ComparisonReport;
}

/** `report` with a run for each of `hosts` after its own: the dynamic run's, named by the host. */
function withHostLanes(
  report: ComparisonReport,
  hosts: readonly string[],
  realHosts: readonly string[] = [],
): ComparisonReport {
  const dynamic = report.runs.find((run) => run.adapter === "dynamic") ?? report.runs[0];
  if (hosts.length + realHosts.length === 0 || dynamic === undefined) return report;
  const real = realHosts.map((name) => ({
    ...dynamic,
    real_host: { name, version: "0.24.0", ended: "exited with status 0" },
  }));
  const runs = [...report.runs, ...hosts.map((host) => ({ ...dynamic, host })), ...real];
  const { baseline } = report;
  if (baseline === null) return { ...report, runs };
  const used = baseline.counters.prompt_tokens;
  const savings = runs.map((run) => {
    const saved = used - run.counters.prompt_tokens;
    const percent = used === 0 ? null : Math.round((saved * 1000) / used) / 10;
    return {
      adapter: runLane(run),
      prompt_tokens: run.counters.prompt_tokens,
      saved_prompt_tokens: saved,
      saved_percent: percent,
    };
  });
  return { ...report, runs, baseline: { ...baseline, savings } };
}

/** How each adapter delivers the tools a read section offers (the core's `ToolDelivery`). */
const DELIVERY = {
  dynamic: "listed",
  restart: "listed",
  allowed_tools: "allowed",
  deferred: "referenced",
  tool_addition: "announced",
} as const;

/**
 * `run` (a dynamic run) as `adapter` would make it when it makes the same calls: the same events,
 * its start naming `adapter`, its injections delivered `adapter`'s way.
 */
export function runAs(run: ComparisonReport["runs"][number], adapter: AdapterKind): ComparisonReport["runs"][number] {
  const events = run.events.map((event): RunEvent => {
    if (event.type === "run_started") return { ...event, adapter };
    if (event.type === "tools_injected") return { ...event, delivery: DELIVERY[adapter] };
    return event;
  });
  return { ...run, adapter, events };
}

/**
 * `report` run under `adapters`, in that order: its runs of those adapters, and for an adapter it
 * has no run of, its dynamic run as that adapter would make it (runAs); the baseline when `baseline`
 * (with each run's savings, in the runs' order);
 * a divergence for each run after the first against the first: the report's own for a pair it has,
 * none for another (the runs made the same calls; the core's divergence is tested in Rust); the
 * report's verdict when the runs and the baseline are its own, else none.
 */
export function reportUnder(
  report: ComparisonReport,
  adapters: readonly AdapterKind[],
  baseline: boolean,
): ComparisonReport {
  const dynamic = report.runs.find((run) => run.adapter === "dynamic") ?? report.runs[0];
  const runs = adapters.flatMap((adapter) => {
    const own = report.runs.find((run) => run.adapter === adapter);
    return own !== undefined ? [own] : dynamic === undefined ? [] : [runAs(dynamic, adapter)];
  });
  const [first, ...later] = runs;
  const divergences = later.map(
    (run) =>
      report.divergences.find((known) => known.left === first?.adapter && known.right === run.adapter) ?? {
        left: first?.adapter ?? "dynamic",
        right: run.adapter,
        first: null,
      },
  );
  const full = report.baseline;
  const savings = (full?.savings ?? []).find((entry) => entry.adapter === dynamic?.adapter);
  const kept =
    full === null || !baseline
      ? null
      : {
          ...full,
          savings: runs.flatMap((run) => {
            const own =
              full.savings.find((entry) => entry.adapter === run.adapter) ??
              (savings === undefined ? undefined : { ...savings, adapter: run.adapter });
            return own === undefined ? [] : [own];
          }),
        };
  // The verdict is the core's (tested in Rust): kept only for the runs it weighed.
  const same = kept !== null && runs.length === report.runs.length && runs.every((run, i) => run === report.runs[i]);
  const { verdict, ...rest } = report;
  return { ...rest, runs, baseline: kept, divergences, ...(same && verdict !== undefined ? { verdict } : {}) };
}

/**
 * What a live comparison of lookup-first under `adapters` reports: those runs of the scripted report
 * (a stand-in for a real model's), no baseline, and a divergence for each run after the first.
 */
export function liveReport(adapters: readonly AdapterKind[]): ComparisonReport {
  return reportUnder(lookupFirstReport(), adapters, false);
}

/** A local OpenAI-compatible server's profile (Ollama), which needs no key. */
export function localProfile(name = "local"): ProviderProfile {
  return { name, kind: "openai", base_url: "http://127.0.0.1:11434/v1", model: "qwen3", stream: true };
}

/** examples/lookup-first.scenario.json. */
export function lookupFirstScenario(): Scenario {
  return {
    schema_version: 1,
    kind: "unfold.scenario",
    name: "lookup-first",
    user: "Refactor the authentication module.",
    script: [
      { call: "lookup", args: { id: 7 } },
      { call: "read_section", args: { section_key: "context" } },
      { call: "search", args: { query: "login" } },
      { say: "Fixed the login flow." },
    ],
  };
}

/** A kept run's report: one adapter's run. */
type RunReport = StoredRun["report"];

/** When the example history's first run started: 5 January 2026, 09:30 UTC. */
const HISTORY_START_MS = Date.UTC(2026, 0, 5, 9, 30);

/**
 * The run history `unfold compare` and the app would have kept, oldest first: the lookup-first
 * comparison's dynamic, restart and baseline runs as scripted runs (ids 1 to 3), then a day later a
 * live run of the dynamic adapter on a local model (id 4) and a live run of the restart adapter
 * whose provider could not be reached (id 5).
 */
export function exampleHistory(): StoredRun[] {
  const report = lookupFirstReport();
  const user = lookupFirstScenario().user ?? "";
  const baseline = report.baseline;
  if (baseline === null) throw new Error("the lookup-first report has a baseline");
  const [dynamic, restart] = report.runs;
  if (dynamic === undefined || restart === undefined)
    throw new Error("the lookup-first report has both adapters' runs");
  const kept = (id: number, lane: Lane, run: RunReport, rest: Partial<StoredRun> = {}): StoredRun => ({
    id,
    started_at_ms: HISTORY_START_MS + (id - 1) * 1_000,
    duration_ms: 40 + id * 5,
    source: "scripted",
    template: report.template,
    template_path: "/t/task.unfold.json",
    template_hash: "5e1f0c9a2b7d4e63",
    scenario: report.scenario,
    scenario_path: "/s/lookup-first.scenario.json",
    provider: "scripted",
    model: null,
    lane,
    adapter: run.adapter,
    status: run.status,
    counters: run.counters,
    cost: run.cost ?? null,
    user,
    later_user_turns: [],
    report: { adapter: run.adapter, status: run.status, final: run.final, counters: run.counters, events: run.events },
    ...rest,
  });
  const live = { source: "live", provider: "local", model: "qwen3" } as const;
  const unreachable = "http://127.0.0.1:11434/v1: connection refused";
  const failedRun: RunReport = {
    adapter: "restart",
    status: "error",
    final: null,
    counters: {
      ...restart.counters,
      model_calls: 0,
      restarts: 0,
      tool_calls: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    },
    events: [
      { type: "run_started", adapter: "restart", template: report.template, seq: 0, attempt: 1 },
      { type: "run_completed", status: "error", final: null, error: unreachable, seq: 1, attempt: 1 },
    ],
  };
  const day = 86_400_000;
  return [
    kept(1, "dynamic", dynamic),
    kept(2, "restart", restart),
    kept(3, "baseline", baseline),
    kept(4, "dynamic", dynamic, { ...live, started_at_ms: HISTORY_START_MS + day, duration_ms: 8_420 }),
    kept(5, "restart", failedRun, {
      ...live,
      started_at_ms: HISTORY_START_MS + day + 9_000,
      duration_ms: 12,
      status: "error",
      counters: failedRun.counters,
    }),
  ];
}

interface OpenScenario {
  scenario: Scenario;
  path: string | null;
  saved: Scenario | null;
  undo: Scenario[];
  redo: Scenario[];
  group: string | null;
}

const ok = <T>(value: T): Promise<Outcome<T>> => Promise.resolve({ ok: true, value });
const failed = <T>(error: PlatformError): Promise<Outcome<T>> => Promise.resolve({ ok: false, error });

export class FakeCompare {
  private readonly open = new Map<number, OpenScenario>();
  private nextId = 0;
  /** Scenario files `openScenario` finds, by path. */
  readonly disk = new Map<string, Scenario>();
  /** What `saveScenario` wrote, as JSON text, by path. */
  readonly files = new Map<string, string>();
  recent: RecentFile[] = [];
  /** What a scripted comparison streams and answers. */
  report: ComparisonReport = lookupFirstReport();
  /** What the last comparison answered (scripted or live): its calls and exports come from it. */
  private last: ComparisonReport | null = null;
  /** When set, a comparison stops after its first run's events until `release()` (or a cancel). */
  hold = false;
  /** Holds a live comparison once, in its first lane, while its model writes its final answer. */
  holdWhileWriting = false;
  private held: (() => void) | null = null;
  private readonly cancelled = new Set<number>();
  /** What `exportComparison`, `exportChart`, `exportRequests` and `exportRunTrace` wrote, by path. */
  readonly exported = new Map<string, string>();
  /** The provider profile file (null: no home folder, so nothing can be saved). */
  profilesPath: string | null = "/home/u/.config/unfold/providers.json";
  profiles: ProviderProfile[] = [];
  /** The environment variables that are set (a profile's key is found when its variable is). */
  readonly environment = new Set<string>();
  /** The profile names the OS keychain holds a key for. */
  readonly keychain = new Set<string>();
  /** The models the prices in force know, as `pricedModels` answers them. */
  pricedModelList: string[] = ["claude-sonnet-4-5", "gpt-4o-mini", "qwen3"];
  /** The prices' default model, as `pricedModels` answers it. */
  defaultModel: string | null = "claude-sonnet-4-5";
  /** The kept runs, oldest first. */
  history: StoredRun[] = exampleHistory();
  /** The host presets, as `hostPresets` answers them (the shipped files; the core lists them in its own order). */
  hosts: HostProfile[] = Object.values(HOST_PRESET_FILES).map((text) => JSON.parse(text) as HostProfile);
  /** The real hosts, as `realHosts` answers them: openai-agents installed, pydantic-ai not. */
  realHostList: HostView[] = [
    { name: "openai-agents", caches_tools: false, program: "/h/openai-agents/bin/python", version: "0.24.0" },
    { name: "openai-agents-cached", caches_tools: true, program: "/h/openai-agents/bin/python", version: "0.24.0" },
    { name: "pydantic-ai", caches_tools: false, program: null, version: null },
    { name: "command", caches_tools: false, program: null, version: null },
  ];
  /** The real hosts the user allowed. */
  readonly allowedHosts = new Set<string>();

  constructor(private readonly template: () => Template) {}

  /** Lets a held comparison go on. */
  release(): void {
    this.held?.();
    this.held = null;
  }

  private view(id: number): Outcome<ScenarioView> {
    const open = this.open.get(id);
    if (open === undefined)
      return {
        ok: false,
        error: { code: "unknown_document", message: `no open scenario ${String(id)}`, problems: [] },
      };
    return {
      ok: true,
      value: {
        id,
        path: open.path,
        dirty: open.scenario !== open.saved,
        can_undo: open.undo.length > 0,
        can_redo: open.redo.length > 0,
        ...checksOf(open.scenario, this.template()),
        scenario: open.scenario,
      },
    };
  }

  private insert(scenario: Scenario, path: string | null): Promise<Outcome<ScenarioView>> {
    this.nextId += 1;
    this.open.set(this.nextId, {
      scenario,
      path,
      saved: path === null ? null : scenario,
      undo: [],
      redo: [],
      group: null,
    });
    return Promise.resolve(this.view(this.nextId));
  }

  newScenario(): Promise<Outcome<ScenarioView>> {
    return this.insert(
      { schema_version: 1, kind: "unfold.scenario", name: "new scenario", user: "Hello.", script: [{ say: "Done." }] },
      null,
    );
  }

  openScenario(path: string): Promise<Outcome<ScenarioView>> {
    const found = this.disk.get(path);
    if (found === undefined) {
      return failed({
        code: "unreadable_file",
        message: `${path}: cannot read: No such file or directory (os error 2)`,
        problems: [],
      });
    }
    for (const [id, open] of this.open) if (open.path === path) return Promise.resolve(this.view(id));
    return this.insert(structuredClone(found), path);
  }

  editScenario(id: number, scenario: Scenario, group: string | null): Promise<Outcome<ScenarioView>> {
    const open = this.open.get(id);
    if (open !== undefined && JSON.stringify(scenario) !== JSON.stringify(open.scenario)) {
      const joins = group !== null && group === open.group && open.undo.length > 0;
      if (!joins) open.undo.push(open.scenario);
      open.redo = [];
      open.group = group;
      open.scenario = scenario;
    }
    return Promise.resolve(this.view(id));
  }

  stepScenario(id: number, back: boolean): Promise<Outcome<ScenarioView>> {
    const open = this.open.get(id);
    if (open !== undefined) {
      const [from, to] = back ? [open.undo, open.redo] : [open.redo, open.undo];
      const step = from.pop();
      if (step !== undefined) {
        to.push(open.scenario);
        open.scenario = step;
      }
      open.group = null;
    }
    return Promise.resolve(this.view(id));
  }

  saveScenario(id: number, path: string | null): Promise<Outcome<ScenarioView>> {
    const open = this.open.get(id);
    const target = path ?? open?.path ?? null;
    if (open === undefined || target === null) {
      return failed({
        code: "invalid_template",
        message: "this scenario has no file yet: save it as a new file",
        problems: [],
      });
    }
    this.files.set(target, JSON.stringify(open.scenario));
    open.path = target;
    open.saved = open.scenario;
    open.group = null;
    return Promise.resolve(this.view(id));
  }

  /** Scenarios kept for recovery, by recovery id (their work comes back modified). */
  readonly recovered = new Map<string, { path: string | null; scenario: Scenario }>();

  restoreScenario(recoveryId: string): Promise<Outcome<ScenarioView>> {
    const kept = this.recovered.get(recoveryId);
    if (kept === undefined) {
      return failed({ code: "invalid_template", message: `no unsaved work is kept as '${recoveryId}'`, problems: [] });
    }
    this.nextId += 1;
    this.open.set(this.nextId, {
      scenario: kept.scenario,
      path: kept.path,
      saved: null,
      undo: [],
      redo: [],
      group: null,
    });
    return Promise.resolve(this.view(this.nextId));
  }

  closeScenario(id: number): Promise<Outcome<null>> {
    this.open.delete(id);
    return ok(null);
  }

  recentScenarios(): Promise<Outcome<RecentFile[]>> {
    return ok(this.recent);
  }

  /**
   * Streams the scripted report (`report`, as it is when it ran the adapters asked in that order;
   * else reportUnder them) or, `live`, liveReport of the adapters asked; each host lane asked runs
   * after them as the dynamic lane did (the core's refresh policies are its own tests').
   */
  async runComparison(
    runId: number,
    adapters: readonly AdapterKind[],
    live: LiveModel | null,
    onProgress: (progress: CompareProgress) => void,
    hosts: readonly string[] = [],
    realHosts: readonly string[] = [],
  ): Promise<Outcome<ComparisonReport>> {
    const notAllowed = realHosts.find((name) => !this.allowedHosts.has(name));
    if (notAllowed !== undefined) {
      const message = `starting ${notAllowed} needs your consent`;
      return { ok: false, error: { code: "invalid_request", message, problems: [] } };
    }
    if (adapters.length + hosts.length === 0) {
      return {
        ok: false,
        error: { code: "invalid_template", message: "choose at least one adapter to compare", problems: [] },
      };
    }
    let { report } = this;
    if (live !== null) {
      const refused = this.liveRefusal(live);
      if (refused !== null) return { ok: false, error: refused };
      report = liveReport(adapters);
    } else if (report.runs.map((run) => run.adapter).join(" ") !== adapters.join(" ")) {
      report = reportUnder(report, adapters, true);
    }
    report = withHostLanes(report, hosts, realHosts);
    this.last = report;
    const runs: [Lane, RunEvent[]][] = report.runs.map((run) => [runLane(run), run.events]);
    if (report.baseline !== null) runs.push(["baseline", report.baseline.events]);
    for (const [index, [lane, events]] of runs.entries()) {
      if (index === 1 && this.hold) await new Promise<void>((resume) => (this.held = resume));
      if (this.cancelled.has(runId))
        return { ok: false, error: { code: "cancelled", message: "cancelled", problems: [] } };
      onProgress({ type: "run_started", lane });
      for (const event of events) {
        // A live model's answer arrives as text first (the final answer's, in two pieces).
        if (live !== null && event.type === "model_call" && event === lastModelCall(events)) {
          const final = report.runs.find((run) => runLane(run) === lane)?.final ?? "";
          onProgress({ type: "text", lane, text: final.slice(0, 5) });
          if (this.holdWhileWriting) {
            this.holdWhileWriting = false;
            await new Promise<void>((resume) => (this.held = resume));
          }
          onProgress({ type: "text", lane, text: final.slice(5) });
        }
        onProgress({ type: "event", lane, event });
      }
    }
    return { ok: true, value: report };
  }

  /** Why the backend would not start a live comparison, as it says it: null when it would. */
  private liveRefusal(live: LiveModel): PlatformError | null {
    const profile = this.profiles.find((p) => p.name === live.profile);
    if (profile === undefined) {
      const known = this.profiles.map((p) => p.name).join(", ") || "none";
      const message = `${this.profilesPath ?? "providers.json"}: /profiles: no profile named '${live.profile}' (profiles: ${known})`;
      return { code: "provider", message, problems: [] };
    }
    if (!this.keySet(profile)) {
      const message =
        profile.api_key_keychain === true
          ? `the keychain holds no key for profile '${profile.name}': store one with \`unfold key set ${profile.name}\``
          : `the environment variable ${profile.api_key_env ?? ""} that profile '${profile.name}' takes its key from is not set`;
      return { code: "provider", message, problems: [] };
    }
    return null;
  }

  /** Whether the profile's key is where it says (always, for a profile without a key). */
  private keySet(profile: ProviderProfile): boolean {
    if (profile.api_key_keychain === true) return this.keychain.has(profile.name);
    const variable = profile.api_key_env ?? null;
    return variable === null || this.environment.has(variable);
  }

  cancelComparison(runId: number): Promise<Outcome<null>> {
    this.cancelled.add(runId);
    this.release();
    return ok(null);
  }

  /** A model call's request (the system prompt names the lane and call) and the model's answer. */
  comparisonCall(lane: Lane, callIndex: number): Promise<Outcome<CallRequest>> {
    const report = this.last ?? this.report;
    const run = (lane === "baseline" ? report.baseline : report.runs.find((r) => r.adapter === lane)) ?? null;
    const call = run?.events.find((e) => e.type === "model_call" && e.call_index === callIndex);
    if (run === null || call === undefined) {
      return failed({
        code: "invalid_template",
        message: `the ${lane} run made no model call ${String(callIndex)}`,
        problems: [],
      });
    }
    const asked = run.events.flatMap((e) => (e.type === "tool_call" && e.call_index === callIndex ? [e.name] : []));
    const response: JsonValue =
      asked.length === 0
        ? { role: "assistant", content: run.final }
        : { role: "assistant", content: null, tool_calls: asked.map((name) => ({ function: { name } })) };
    // The tools the call offered, as OpenAI tool objects (their definitions are the backend's).
    const offered = call.type === "model_call" ? call.tools_offered : [];
    const tools = offered.map((name) => ({ type: "function", function: { name } }));
    const body = {
      messages: [{ role: "system", content: `system prompt of ${lane} call ${String(callIndex)}` }],
      tools,
    };
    return ok({ call_index: callIndex, attempt: call.attempt, body, response });
  }

  /** Keeps the report as JSON, or for Markdown (which the backend's tests check) its headline. */
  exportComparison(path: string, format: ReportFormat): Promise<Outcome<null>> {
    const report = this.last ?? this.report;
    this.exported.set(
      path,
      format === "json" ? JSON.stringify(report) : `**Verdict:** ${report.verdict?.headline ?? ""}`,
    );
    return ok(null);
  }

  /** The cases added to each suite file, by name (the backend's tests check what a case expects). */
  readonly suiteCases = new Map<string, string[]>();

  /** Adds the last comparison to `suite` as a case named after its scenario, made unique. */
  addToSuite(suite: string): Promise<Outcome<string>> {
    const cases = this.suiteCases.get(suite) ?? [];
    const wanted = (this.last ?? this.report).scenario;
    const name = cases.includes(wanted) ? `${wanted} (${String(cases.length + 1)})` : wanted;
    this.suiteCases.set(suite, [...cases, name]);
    return ok(name);
  }

  /** Keeps the chart's SVG (the PNG drawn from it is the real app's: see the e2e tests). */
  exportChart(path: string, image: ChartImage): Promise<Outcome<null>> {
    this.exported.set(path, image.svg);
    return ok(null);
  }

  exportRequests(folder: string, api: RequestShape): Promise<Outcome<number>> {
    const report = this.last ?? this.report;
    const calls = [...report.runs.map((r) => r.counters.model_calls), report.baseline?.counters.model_calls ?? 0];
    const count = calls.reduce((a, b) => a + b, 0);
    this.exported.set(folder, `${String(count)} request bodies (${api})`);
    return ok(count);
  }

  private profilesView(): ProfilesView {
    const keysSet = this.profiles.map((profile) => this.keySet(profile));
    return { path: this.profilesPath, profiles: structuredClone(this.profiles), keys_set: keysSet };
  }

  providerProfiles(): Promise<Outcome<ProfilesView>> {
    return ok(this.profilesView());
  }

  pricedModels(): Promise<Outcome<PricedModels>> {
    return ok({ models: [...this.pricedModelList], default_model: this.defaultModel });
  }

  hostPresets(): Promise<Outcome<HostProfile[]>> {
    return ok(structuredClone(this.hosts));
  }

  realHosts(): Promise<Outcome<HostView[]>> {
    return ok(structuredClone(this.realHostList));
  }

  /** What starting `name` runs, unless allowed; refused for a host not installed. */
  realHostQuestion(name: string): Promise<Outcome<string | null>> {
    const host = this.realHostList.find((known) => known.name === name);
    if (host?.program == null) {
      return Promise.resolve({
        ok: false,
        error: { code: "not_found", message: `${name} is not installed`, problems: [] },
      });
    }
    return ok(this.allowedHosts.has(name) ? null : `program: ${host.program}\nenv: HOME={run}/home`);
  }

  allowRealHost(name: string): Promise<Outcome<null>> {
    this.allowedHosts.add(name);
    return ok(null);
  }

  /** Keeps `list` when the core's checks find no problem; else refuses with each at its place. */
  saveProviderProfiles(list: ProviderProfile[]): Promise<Outcome<ProfilesView>> {
    if (this.profilesPath === null) {
      return failed({
        code: "unavailable",
        message: "there is no home folder to keep provider profiles in",
        problems: [],
      });
    }
    const refusal = profilesRefusal(list);
    if (refusal !== null) return failed(refusal);
    // The backend writes the file canonically: absent settings and a false keychain are left out,
    // `stream` is written.
    this.profiles = list.map((profile) => ({
      ...(Object.fromEntries(
        Object.entries(profile).filter(
          ([key, value]) => value !== null && !(key === "api_key_keychain" && value === false),
        ),
      ) as ProviderProfile),
      stream: profile.stream ?? true,
    }));
    return ok(this.profilesView());
  }

  /** The kept runs `filter` matches, newest first, as the core lists them (exact matches, 100 at most by default). */
  runHistory(filter: RunFilter): Promise<Outcome<RunSummary[]>> {
    const matches = (value: unknown, wanted: unknown) => wanted === undefined || wanted === null || value === wanted;
    const found = this.history.filter(
      (run) =>
        matches(run.template, filter.template) &&
        matches(run.provider, filter.provider) &&
        matches(run.adapter, filter.adapter) &&
        matches(run.status, filter.status) &&
        matches(run.source, filter.source),
    );
    const newestFirst = found.sort(
      (a, b) => (b.started_at_ms ?? 0) - (a.started_at_ms ?? 0) || (b.id ?? 0) - (a.id ?? 0),
    );
    return ok(newestFirst.slice(0, filter.limit ?? 100).map(summaryOf));
  }

  historyRun(id: number): Promise<Outcome<StoredRun>> {
    const run = this.history.find((kept) => kept.id === id);
    return run === undefined
      ? failed({
          code: "invalid_template",
          message: `run ${String(id)}: no run in the history has this id`,
          problems: [],
        })
      : ok(run);
  }

  /** Writes kept run `id`'s trace to `path` (a line per run, as the backend writes OTLP JSON lines). */
  exportRunTrace(id: number, path: string): Promise<Outcome<null>> {
    const run = this.history.find((kept) => kept.id === id);
    if (run === undefined)
      return failed({
        code: "not_found",
        message: `run ${String(id)}: no run in the history has this id`,
        problems: [],
      });
    this.exported.set(path, JSON.stringify({ resourceSpans: [{ run: id, events: run.report.events.length }] }));
    return ok(null);
  }

  /** The forks asked, in order. */
  readonly forks: ForkRequest[] = [];

  /**
   * A fork as the core answers it (its engine is tested in Rust): the parent's run (a kept one, or
   * the newest kept run of the comparison's lane) in each lane asked, its events as recorded with
   * each changed call's result, kept in the history as the parent's children.
   */
  forkRun(request: ForkRequest): Promise<Outcome<ForkAnswer>> {
    this.forks.push(request);
    const { parent } = request;
    const lane = parent.comparison?.lane ?? null;
    const kept =
      lane !== null
        ? [...this.history].reverse().find((run) => run.lane === lane)
        : this.history.find((run) => run.id === parent.kept);
    if (kept === undefined || kept.id === null) {
      return failed({ code: "not_found", message: "the run to fork is no longer kept", problems: [] });
    }
    const parentId = kept.id;
    const events = kept.report.events.map((event) =>
      event.type === "tool_call" && event.seq >= request.at_seq
        ? {
            ...event,
            result: request.change.results.find((changed) => changed.call_id === event.call_id)?.result ?? event.result,
          }
        : event,
    );
    const runs: RunReport[] = request.lanes.map((lane) => ({
      ...kept.report,
      adapter: lane as RunReport["adapter"],
      events,
    }));
    const ids = runs.map((run, index) => {
      const id = Math.max(...this.history.map((stored) => stored.id ?? 0)) + 1;
      this.history.push({
        ...kept,
        id,
        started_at_ms: (kept.started_at_ms ?? 0) + 60_000 + index,
        lane: request.lanes[index] ?? null,
        adapter: run.adapter,
        report: run,
        forked_from: { run: parentId, at_seq: request.at_seq },
      });
      return id;
    });
    const fork = {
      parent: `run ${String(parentId)}`,
      lane: kept.lane ?? kept.adapter,
      at_seq: request.at_seq,
      replayed_calls: kept.report.events.filter((event) => event.type === "model_call" && event.seq < request.at_seq)
        .length,
      changed_results: request.change.results.map((changed) => changed.call_id),
      expanded: request.change.expand,
    };
    return ok({ report: { ...this.report, runs, baseline: null, divergences: [], fork }, kept: ids });
  }

  /**
   * Run `id` beside run `baseline`. The fake knows one divergence, the lookup-first report's
   * restart run against its dynamic run (whatever their source); any other pair has none (the
   * core's divergence is tested in Rust).
   */
  compareHistoryRuns(baseline: number, id: number): Promise<Outcome<RunComparison>> {
    const left = this.history.find((kept) => kept.id === baseline);
    const right = this.history.find((kept) => kept.id === id);
    if (left === undefined || right === undefined) {
      const missing = left === undefined ? baseline : id;
      return failed({
        code: "invalid_template",
        message: `run ${String(missing)}: no run in the history has this id`,
        problems: [],
      });
    }
    const known =
      this.report.divergences.find((divergence) => divergence.left === "dynamic" && divergence.right === "restart") ??
      null;
    const [dynamic, restart] = this.report.runs;
    const same = (run: StoredRun, report: RunReport | undefined) =>
      JSON.stringify(run.report.events) === JSON.stringify(report?.events);
    const first = known !== null && same(left, dynamic) && same(right, restart) ? known.first : null;
    return ok({
      baseline: summaryOf(left),
      run: summaryOf(right),
      divergence: { left: left.adapter, right: right.adapter, first },
    });
  }
}

/** A kept run without its user message and report. */
function summaryOf(run: StoredRun): RunSummary {
  const summary: Partial<StoredRun> = { ...run };
  delete summary.user;
  delete summary.report;
  return summary as RunSummary;
}

/** The core's refusal of `list` as the provider profiles (the recorded one, else imitated), or null. */
export function profilesRefusal(list: readonly ProviderProfile[]): PlatformError | null {
  const recorded = recordedAnswer(null, { command: "saveProviderProfiles", args: { profiles: list } });
  if (recorded !== undefined) return recorded.ok ? null : recorded.error;
  return imitatedProfilesRefusal(list);
}

/** The core's refusal of `list` as the provider profiles, as the fake imitates it, or null. */
export function imitatedProfilesRefusal(list: readonly ProviderProfile[]): PlatformError | null {
  const problems = list.flatMap((profile, i) => profileProblems(profile, i, list));
  if (problems.length === 0) return null;
  const message = problems.map((problem) => `${problem.location}: ${problem.message}`).join("\n");
  return { code: "invalid_profiles", message, problems };
}

/** The core's checks of profile `i` of `list` (a provider profile file's), each at its JSON pointer. */
function profileProblems(profile: ProviderProfile, i: number, list: readonly ProviderProfile[]): ProblemView[] {
  const at = (field: string, message: string) => ({ location: `/profiles/${String(i)}/${field}`, message });
  const problems: ProblemView[] = [];
  if (profile.name === "") problems.push(at("name", "value is shorter than 1 character"));
  if (!/^https?:\/\//.test(profile.base_url)) problems.push(at("base_url", "must start with http:// or https://"));
  if (profile.model.trim() === "") problems.push(at("model", "a profile needs a model"));
  const { temperature, max_tokens: maxTokens, api_key_env: variable } = profile;
  if (temperature !== undefined && temperature !== null && !(temperature >= 0 && temperature <= 2)) {
    problems.push(at("temperature", "must be between 0 and 2"));
  }
  if (maxTokens === 0) problems.push(at("max_tokens", "must be at least 1"));
  for (const field of ["connect_timeout_ms", "read_timeout_ms"] as const) {
    if (profile[field] === 0) problems.push(at(field, "must be at least 1"));
  }
  if (profile.api_key_keychain === true && variable !== undefined && variable !== null) {
    problems.push(
      at("api_key_keychain", "takes its key either from the keychain or from an environment variable, not both"),
    );
  }
  if (variable !== undefined && variable !== null && (variable === "" || variable.includes("="))) {
    problems.push(at("api_key_env", "must be the name of an environment variable"));
  }
  if (list.slice(0, i).some((earlier) => earlier.name === profile.name)) {
    problems.push(at("name", `a profile named '${profile.name}' comes earlier`));
  }
  return problems;
}

/** A scenario's checks on a template: the recorded ones, else the imitation's (which warns of nothing). */
export function checksOf(scenario: Scenario, template: Template): { problems: ProblemView[]; warnings: ProblemView[] } {
  const recorded = recordedAnswer(template, { command: "editScenario", args: { scenario } });
  if (recorded?.ok === true) return recorded.value as { problems: ProblemView[]; warnings: ProblemView[] };
  return { problems: problemsOf(scenario, template), warnings: [] };
}

/** The backend's main checks of a scenario on a template, roughly: unknown parameters and the last step. */
export function problemsOf(scenario: Scenario, template: Template): ProblemView[] {
  const problems: ProblemView[] = [];
  for (const name of Object.keys(scenario.params ?? {})) {
    if (!(name in template.params)) {
      problems.push({
        location: `/params/${name}`,
        message: `unknown parameter '${name}': template '${template.key}' neither declares nor uses it`,
      });
    }
  }
  const script = scenario.script ?? [];
  if (!("say" in (script.at(-1) ?? {}))) {
    problems.push({
      location: `/script/${String(script.length - 1)}`,
      message: 'the last step must be a "say" step (the final answer)',
    });
  }
  return problems;
}

/** The last model_call event of a run's events. */
function lastModelCall(events: readonly RunEvent[]): RunEvent | undefined {
  return events.filter((event) => event.type === "model_call").at(-1);
}
