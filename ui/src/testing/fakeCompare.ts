// Test-only: the compare view's backend in memory, for the FakePlatform. Scenarios with whole-value
// history, dirty state, saves and the backend's main checks against the template; comparisons that
// stream a real report's events (the one `unfold compare --json` wrote for the example and
// lookup-first, kept in fixtures/ and checked against the core by its tests), can be held midway
// to test progress and cancel, and answer each model call's request and response.
import type {
  CallRequest,
  CompareProgress,
  ComparisonReport,
  JsonValue,
  Lane,
  Outcome,
  PlatformError,
  ProblemView,
  RecentFile,
  RunEvent,
  Scenario,
  ScenarioView,
  Template,
} from "../platform";
import reportText from "./fixtures/lookup-first.report.json?raw";

/** The report of the example template and examples/lookup-first.scenario.json. */
export function lookupFirstReport(): ComparisonReport {
  return JSON.parse(reportText) as ComparisonReport;
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
  /** What a comparison streams and answers. */
  report: ComparisonReport = lookupFirstReport();
  /** When set, a comparison stops after its first run's events until `release()` (or a cancel). */
  hold = false;
  private held: (() => void) | null = null;
  private readonly cancelled = new Set<number>();
  /** What `exportComparison` and `exportRequests` wrote, by path. */
  readonly exported = new Map<string, string>();

  constructor(private readonly template: () => Template) {}

  /** Lets a held comparison go on. */
  release(): void {
    this.held?.();
    this.held = null;
  }

  private view(id: number): Outcome<ScenarioView> {
    const open = this.open.get(id);
    if (open === undefined) return { ok: false, error: { code: "unknown_document", message: `no open scenario ${String(id)}`, problems: [] } };
    return {
      ok: true,
      value: {
        id,
        path: open.path,
        dirty: open.scenario !== open.saved,
        can_undo: open.undo.length > 0,
        can_redo: open.redo.length > 0,
        problems: problemsOf(open.scenario, this.template()),
        scenario: open.scenario,
      },
    };
  }

  private insert(scenario: Scenario, path: string | null): Promise<Outcome<ScenarioView>> {
    this.nextId += 1;
    this.open.set(this.nextId, { scenario, path, saved: path === null ? null : scenario, undo: [], redo: [], group: null });
    return Promise.resolve(this.view(this.nextId));
  }

  newScenario(): Promise<Outcome<ScenarioView>> {
    return this.insert({ schema_version: 1, kind: "unfold.scenario", name: "new scenario", user: "Hello.", script: [{ say: "Done." }] }, null);
  }

  openScenario(path: string): Promise<Outcome<ScenarioView>> {
    const found = this.disk.get(path);
    if (found === undefined) {
      return failed({ code: "unreadable_file", message: `${path}: cannot read: No such file or directory (os error 2)`, problems: [] });
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
      return failed({ code: "invalid_template", message: "this scenario has no file yet: save it as a new file", problems: [] });
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
    this.open.set(this.nextId, { scenario: kept.scenario, path: kept.path, saved: null, undo: [], redo: [], group: null });
    return Promise.resolve(this.view(this.nextId));
  }

  closeScenario(id: number): Promise<Outcome<null>> {
    this.open.delete(id);
    return ok(null);
  }

  recentScenarios(): Promise<Outcome<RecentFile[]>> {
    return ok(this.recent);
  }

  async runComparison(runId: number, onProgress: (progress: CompareProgress) => void): Promise<Outcome<ComparisonReport>> {
    const { report } = this;
    const runs: [Lane, RunEvent[]][] = report.runs.map((run) => [run.adapter, run.events]);
    if (report.baseline !== null) runs.push(["baseline", report.baseline.events]);
    for (const [index, [lane, events]] of runs.entries()) {
      if (index === 1 && this.hold) await new Promise<void>((resume) => (this.held = resume));
      if (this.cancelled.has(runId)) return { ok: false, error: { code: "cancelled", message: "cancelled", problems: [] } };
      onProgress({ type: "run_started", lane });
      for (const event of events) onProgress({ type: "event", lane, event });
    }
    return { ok: true, value: report };
  }

  cancelComparison(runId: number): Promise<Outcome<null>> {
    this.cancelled.add(runId);
    this.release();
    return ok(null);
  }

  /** A model call's request (the system prompt names the lane and call) and the model's answer. */
  comparisonCall(lane: Lane, callIndex: number): Promise<Outcome<CallRequest>> {
    const run = (lane === "baseline" ? this.report.baseline : this.report.runs.find((r) => r.adapter === lane)) ?? null;
    const call = run?.events.find((e) => e.type === "model_call" && e.call_index === callIndex);
    if (run === null || call === undefined) {
      return failed({ code: "invalid_template", message: `the ${lane} run made no model call ${String(callIndex)}`, problems: [] });
    }
    const asked = run.events.flatMap((e) => (e.type === "tool_call" && e.call_index === callIndex ? [e.name] : []));
    const response: JsonValue =
      asked.length === 0
        ? { role: "assistant", content: run.final }
        : { role: "assistant", content: null, tool_calls: asked.map((name) => ({ function: { name } })) };
    const body = { messages: [{ role: "system", content: `system prompt of ${lane} call ${String(callIndex)}` }], tools: [] };
    return ok({ call_index: callIndex, attempt: call.attempt, body, response });
  }

  exportComparison(path: string): Promise<Outcome<null>> {
    this.exported.set(path, JSON.stringify(this.report));
    return ok(null);
  }

  exportRequests(folder: string): Promise<Outcome<number>> {
    const calls = [...this.report.runs.map((r) => r.counters.model_calls), this.report.baseline?.counters.model_calls ?? 0];
    const count = calls.reduce((a, b) => a + b, 0);
    this.exported.set(folder, `${String(count)} request bodies`);
    return ok(count);
  }
}

/** The backend's main checks of a scenario on a template, roughly: unknown parameters and tool results. */
function problemsOf(scenario: Scenario, template: Template): ProblemView[] {
  const problems: ProblemView[] = [];
  for (const name of Object.keys(scenario.params ?? {})) {
    if (!(name in template.params)) {
      problems.push({ location: `/params/${name}`, message: `unknown parameter '${name}': template '${template.key}' neither declares nor uses it` });
    }
  }
  if (!("say" in (scenario.script.at(-1) ?? {}))) {
    problems.push({ location: `/script/${String(scenario.script.length - 1)}`, message: 'the last step must be a "say" step (the final answer)' });
  }
  return problems;
}
