// A comparison's state and actions, without React: the model it asks (the open scenario's script,
// or a provider profile's real model) under the adapters ticked, the question asked before a run
// about the template's tool sources not allowed (runSources.ts: allow them, or run with their
// snapshots, which is kept for the session), the session of the app's relay a template's relay
// sources take their tools from (none by default), the model a scripted comparison's runs are priced
// as (none by default; a live one is priced as its own model by the backend), the run with its
// events arriving lane by lane and its cancel, the event picked on the timeline (until it is let
// go) with the request and answer of its model call, and the exports. The scenario it runs is the
// scenario store's, the profiles the provider store's; what was not done, and what an export wrote,
// is said on the page's outcome. React reads it through `subscribe`/`getState`.
import { allowHosts, askAboutHosts, type HostsQuestion } from "../shared/hostConsent";
import type {
  HostProfile,
  HostView,
  AdapterKind,
  ComparisonSettings,
  FilePurpose,
  Lane,
  LiveModel,
  Outcome,
  Platform,
  ProfilesView,
  ProviderProfile,
  RelaySessionView,
  ReportFormat,
  RequestShape,
  RunEvent,
  Scenario,
  ScenarioView,
  SourceView,
  Template,
  ToolSource,
  ChartImage,
  ForkAnswer,
  ForkModel,
} from "../platform";
import { hostLane, realHostLane } from "../platform/lanes";
import { sameJsonIgnoringUndefined } from "../shared/json";
import { ExternalStore } from "../shared/ExternalStore";
import {
  ADAPTERS,
  againstPlace,
  callIndexOf,
  type AgainstCall,
  type CallDetail,
  type DiffTarget,
  type PickedEvent,
  type RunState,
} from "../runs/run";
import { describeError, failureOf, type BriefFailure, type Failure } from "../shared/failure";
import type { ForkChoice } from "../runs/ForkDialog";
import type { OutcomeStore } from "../shared/outcome";
import { sourcesToAsk, withDeclined, type Declined } from "./runSources";
import { COMPARISON_ANSWERED } from "./comparisonDrawnMark";
import { chartImage, type ChartFormat, type ChartPicture } from "../runs/chartImage";
import { StudyStore } from "../studies/store";

/** The template the view runs on: the editor's open document. */
export interface OpenTemplate {
  id: number;
  /** Its file; null until saved. */
  path: string | null;
  /** It has changes not saved to its file. */
  dirty: boolean;
  template: Template;
}

/** The suite a comparison is added to as a case: the Suites page's. */
export interface SuiteLink {
  /** The suite file open on the Suites page, if any. */
  openSuite: () => string | null;
  /** Shows the suite at `path` on the Suites page, a case just added to it. */
  show: (path: string) => void;
}

/** The open scenario as a comparison reads it: the scenario store. */
export interface OpenScenario {
  getState: () => { scenario: ScenarioView | null };
  /** Settles once the scenario actions asked for so far are done. */
  idle: () => Promise<void>;
}

/**
 * The model a comparison asks, and the `adapters` it runs under (in order; each run after the first
 * is set against the first): the scenario's script (then the all-FULL baseline too), or the real
 * model of the provider profile named `profile`, sent the scenario's user message (no baseline,
 * which would cost one more paid run).
 */
export type ComparisonSetup =
  | { kind: "scripted"; adapters: AdapterKind[]; hosts: string[]; realHosts: string[] }
  | { kind: "live"; profile: string; adapters: AdapterKind[]; hosts: string[]; realHosts: string[] };

/** The API shapes request bodies are exported in, as the export picker names them. */
export const REQUEST_SHAPES: Readonly<Record<RequestShape, string>> = {
  "openai-chat": "OpenAI Chat",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
};

/** The adapters ticked until the user ticks others. */
export const DEFAULT_ADAPTERS: readonly AdapterKind[] = ["dynamic", "restart"];

/** The scenario's script under the default adapters. */
export const SCRIPTED: ComparisonSetup = {
  kind: "scripted",
  adapters: [...DEFAULT_ADAPTERS],
  hosts: [],
  realHosts: [],
};

/** The scenario's script, under the adapters `previous` had ticked. */
export function scriptedModel(previous: ComparisonSetup): ComparisonSetup {
  return {
    kind: "scripted",
    adapters: [...previous.adapters],
    hosts: [...previous.hosts],
    realHosts: [...previous.realHosts],
  };
}

/** The live model of the profile `profile`, under the adapters `previous` had ticked. */
export function liveModel(profile: string, previous: ComparisonSetup): ComparisonSetup {
  return {
    kind: "live",
    profile,
    adapters: [...previous.adapters],
    hosts: [...previous.hosts],
    realHosts: [...previous.realHosts],
  };
}

/** `model` with `adapter` ticked (`on`) or not; the adapters stay in the order they run. */
export function withAdapter(model: ComparisonSetup, adapter: AdapterKind, on: boolean): ComparisonSetup {
  return { ...model, adapters: ADAPTERS.filter((kind) => (kind === adapter ? on : model.adapters.includes(kind))) };
}

/** `model` with the host lane of the preset `host` added after the others (`on`) or taken out. */
export function withHost(model: ComparisonSetup, host: string, on: boolean): ComparisonSetup {
  const others = model.hosts.filter((name) => name !== host);
  return { ...model, hosts: on ? [...others, host] : others };
}

/** `model` with the real host `host` added after the others (`on`) or taken out. */
export function withRealHost(model: ComparisonSetup, host: string, on: boolean): ComparisonSetup {
  const others = model.realHosts.filter((name) => name !== host);
  return { ...model, realHosts: on ? [...others, host] : others };
}

/** What the backend is asked to run for `model`: null for the scenario's script. */
export function liveRunOf(model: ComparisonSetup): LiveModel | null {
  return model.kind === "scripted" ? null : { profile: model.profile };
}

/** The lanes a comparison of `model` fills, in the order they run: its adapters, its hosts, its real hosts, then a scripted one's baseline. */
export function lanesOf(model: ComparisonSetup): Lane[] {
  const lanes = [...model.adapters, ...model.hosts.map(hostLane), ...model.realHosts.map(realHostLane)];
  return model.kind === "scripted" ? [...lanes, "baseline"] : lanes;
}

/** Whether `template` has a source that takes its tools from a relay session. */
export function hasRelaySource(template: Template): boolean {
  return (template.sources ?? []).some((source) => source.relay !== undefined);
}

/**
 * The relay session a comparison of `template` attaches to: the one chosen, while the template has a
 * relay source and the relay still has that session; else null.
 */
export function relaySessionOf(
  state: Pick<ComparisonState, "relaySession" | "relaySessions">,
  template: Template,
): string | null {
  const { relaySession } = state;
  if (relaySession === null || !hasRelaySource(template)) return null;
  return state.relaySessions.some((session) => session.code === relaySession) ? relaySession : null;
}

/**
 * The model a comparison of the chosen model is priced as: the one chosen, while the model is the
 * scenario's script and the prices know it; else null (the prices' default model for the script; a
 * live run is priced as its own model).
 */
export function priceAsOf(state: Pick<ComparisonState, "model" | "priceAs" | "pricedModels">): string | null {
  const { model, priceAs } = state;
  if (model.kind !== "scripted" || priceAs === null) return null;
  return state.pricedModels.includes(priceAs) ? priceAs : null;
}

/** The model a fork of the comparison goes on with: the comparison's own, live or scripted. */
export function forkModelOf(state: Pick<ComparisonState, "model" | "priceAs" | "pricedModels">): ForkModel {
  const live = liveRunOf(state.model);
  return live === null ? { scripted: { price_as: priceAsOf(state) } } : { live: { profile: live.profile } };
}

/** The profile a live model names, and whether the variable its key comes from is set now. */
export interface ChosenProfile {
  profile: ProviderProfile;
  keySet: boolean;
}

/** The profile the chosen live model names, when the profiles read have it (null when scripted). */
export function chosenProfile(state: Pick<ComparisonContext, "model" | "profiles">): ChosenProfile | null {
  const { model, profiles } = state;
  if (model.kind === "scripted" || profiles === null) return null;
  const index = profiles.profiles.findIndex((profile) => profile.name === model.profile);
  const profile = profiles.profiles[index];
  return profile === undefined ? null : { profile, keySet: profiles.keys_set[index] ?? false };
}

/** Why Run cannot start now, in words for its title; null when it can. */
export function notRunnable(state: ComparisonContext): string | null {
  const { scenario, run, model } = state;
  if (scenario === null) return "Start or open a scenario first";
  if (run?.status === "running") return "A comparison is running";
  if (scenario.problems.length > 0) return "Fix the scenario's problems first";
  if (model.kind === "live") {
    if (chosenProfile(state) === null)
      return `The provider profile '${model.profile}' no longer exists: choose another model`;
    if (model.adapters.length + model.hosts.length === 0) return "Tick at least one adapter to run live";
  }
  if (model.adapters.length + model.hosts.length === 0) return "Tick at least one adapter to compare";
  return null;
}

/** The question asked before a run: the template's sources not allowed for its file as defined now. */
export interface SourcesQuestion {
  /** The sources asked about, as the backend answered. */
  views: SourceView[];
  /** Allow and run is allowing them. */
  allowing: boolean;
  /** Why one was not allowed (nothing ran). */
  failure: Failure | null;
}

/** The scenario and template a comparison runs on, as one text to compare with later. */
export function inputsOf(scenario: Scenario, template: Template): string {
  return JSON.stringify([scenario, template]);
}

/** Whether `run` ran on another scenario or template than these (an edit since, not undone). */
export function ranOnOthers(run: RunState, scenario: Scenario | null, template: Template): boolean {
  return scenario !== null && run.inputs !== inputsOf(scenario, template);
}

export interface ComparisonState {
  run: RunState | null;
  picked: PickedEvent | null;
  detail: CallDetail;
  /** What the picked model call's request is diffed against. */
  diffTarget: DiffTarget;
  /** The model the next comparison asks. */
  model: ComparisonSetup;
  /** The question about the template's sources not allowed, while Run waits for its answer. */
  sourcesQuestion: SourcesQuestion | null;
  /** The question about the real hosts not allowed, while Run waits for its answer. */
  hostsQuestion: HostsQuestion | null;
  /** The sessions of the app's relay as last read (none while it is stopped). */
  relaySessions: RelaySessionView[];
  /** The code of the relay session the next comparison attaches to (null: none). */
  relaySession: string | null;
  /** Every model the prices in force know, as last read (none until read, or when they cannot be). */
  pricedModels: string[];
  /** The model a scripted comparison is priced as when none is chosen, as last read (null: none). */
  defaultModel: string | null;
  /** The model the next scripted comparison's runs are priced as (null: the default model). */
  priceAs: string | null;
  /** The agent hosts a lane can run as, as last read (none until read). */
  hostPresets: HostProfile[];
  /** The real agent hosts a comparison can run, installed or not, as last read (none until read). */
  realHosts: HostView[];
  /** The fork asked of the shown comparison (spec 15): its lane and event, while its question is open. */
  fork: ForkAsk | null;
}

/** A fork of one lane of the shown comparison at one of its events, as its question is open. */
export interface ForkAsk {
  lane: Lane;
  seq: number;
  /** It runs. */
  busy: boolean;
  /** Why the last try failed. */
  failure: BriefFailure | null;
}

/** What starting each real host not allowed runs, as the user is asked to allow it. */
/**
 * A comparison's state with what else Run depends on: the open scenario (the scenario store's) and
 * the provider profiles as last read (the provider store's, null until read).
 */
export type ComparisonContext = ComparisonState & { scenario: ScenarioView | null; profiles: ProfilesView | null };

/** No events yet in each of `lanes`. */
export function noEvents(lanes: readonly Lane[]): Partial<Record<Lane, RunEvent[]>> {
  return Object.fromEntries(lanes.map((lane) => [lane, []]));
}

export class ComparisonStore extends ExternalStore<ComparisonState> {
  private runs = 0;
  /** The sources' views are being read before a run (Run again meanwhile does nothing). */
  private readingSources = false;
  /** What the open sources question was asked about: the document, its file and its sources then. */
  private asked: { id: number; path: string; sources: readonly ToolSource[] } | null = null;
  /** The source definitions the user chose to run with their snapshots this session. */
  private declined: Declined = new Set();
  /** The chart as the Compare page draws it now, while the page is there (see drawsChart). */
  private chartSource: (() => ChartPicture | null) | null = null;
  /** The comparison repeated as a study, when Run is asked for more than one repetition. */
  readonly study: StudyStore;

  /**
   * `scenario`: the scenario the comparison runs; `profiles`: the provider profiles as last read;
   * `outcome`: where a failure or an export's notice is said (the Compare page's);
   * `sourcesAllowed`: sources were allowed here (the Sources panel reads their views again).
   */
  constructor(
    private readonly platform: Platform,
    private readonly openTemplate: () => OpenTemplate | null,
    private readonly scenario: OpenScenario,
    private readonly profiles: () => ProfilesView | null,
    private readonly outcome: OutcomeStore,
    private readonly sourcesAllowed: () => void = () => undefined,
    private readonly suites: SuiteLink = { openSuite: () => null, show: () => undefined },
  ) {
    super({
      run: null,
      picked: null,
      detail: { kind: "none" },
      diffTarget: { kind: "previous" },
      model: SCRIPTED,
      sourcesQuestion: null,
      hostsQuestion: null,
      relaySessions: [],
      relaySession: null,
      pricedModels: [],
      defaultModel: null,
      priceAs: null,
      hostPresets: [],
      realHosts: [],
      fork: null,
    });
    this.study = new StudyStore(platform);
  }

  /** Asks how to fork the shown comparison's `lane` at its event `seq` (once it has finished). */
  openFork(lane: Lane, seq: number): void {
    if (this.state.run?.status !== "finished") return;
    this.update({ fork: { lane, seq, busy: false, failure: null } });
  }

  /** Leaves the fork's question (not while it runs). */
  closeFork(): void {
    if (this.state.fork?.busy !== true) this.update({ fork: null });
  }

  /**
   * Runs the fork asked, as `choice` says, on the open documents and the model the comparison ran
   * with; its answer (the report, the history's ids of its runs), or null when it failed (said in
   * the question).
   */
  async runFork(choice: ForkChoice): Promise<ForkAnswer | null> {
    const { fork, run } = this.state;
    const template = this.openTemplate();
    const open = this.scenario.getState().scenario;
    if (fork === null || fork.busy || run === null || template === null || open === null) return null;
    this.update({ fork: { ...fork, busy: true, failure: null } });
    const answer = await this.platform.forkRun({
      parent: { comparison: { run_id: run.id, lane: fork.lane } },
      at_seq: fork.seq,
      change: { results: choice.results, expand: choice.expand },
      lanes: choice.lanes,
      model: forkModelOf(this.state),
      documents: [{ open: template.id }, { open: open.id }],
      history: true,
      run_id: null,
    });
    if (!answer.ok) {
      this.update({ fork: { ...fork, busy: false, failure: describeError(answer.error) } });
      return null;
    }
    this.update({ fork: null });
    return answer.value;
  }

  /** The state with the open scenario and the provider profiles, as Run's checks read it. */
  private context(): ComparisonContext {
    return { ...this.state, scenario: this.scenario.getState().scenario, profiles: this.profiles() };
  }

  /** Lets go of the comparison and its picked event: another scenario took the place of the one it ran. */
  forget(): void {
    this.update({ run: null, picked: null, detail: { kind: "none" } });
    this.study.forget();
  }

  /** Reads the sessions of the app's relay (none when it is stopped or cannot be read). */
  async loadRelay(): Promise<void> {
    const answer = await this.platform.relayStatus();
    const sessions = answer.ok && answer.value.listening !== null ? answer.value.sessions : [];
    this.update({ relaySessions: sessions });
  }

  /** Chooses the relay session the next comparison attaches to (null: none). */
  setRelaySession(code: string | null): void {
    this.update({ relaySession: code });
  }

  /**
   * Reads the models a scripted comparison can be priced as. A broken prices file is the user's to
   * fix: it is said, and there is nothing to choose meanwhile.
   */
  async loadPricedModels(): Promise<void> {
    const read = await this.platform.pricedModels();
    if (read.ok) this.update({ pricedModels: read.value.models, defaultModel: read.value.default_model });
    else {
      this.update({ pricedModels: [], defaultModel: null });
      this.outcome.fail(failureOf("The prices could not be read", read.error));
    }
  }

  /** Reads the agent hosts a lane can run as, and the real ones (none when they cannot be read: the adapters still run). */
  async loadHostPresets(): Promise<void> {
    const [presets, real] = await Promise.all([this.platform.hostPresets(), this.platform.realHosts()]);
    this.update({ hostPresets: presets.ok ? presets.value : [], realHosts: real.ok ? real.value : [] });
  }

  /** Chooses the model the next scripted comparison's runs are priced as (null: the default model). */
  setPriceAs(model: string | null): void {
    this.update({ priceAs: model });
  }

  /** Chooses the model the next comparison asks. */
  setModel(model: ComparisonSetup): void {
    this.update({ model });
  }

  /**
   * Runs the scenario on the open template with the chosen model under the adapters ticked: its
   * script (and the all-FULL baseline after them), or a live model. Nothing when it is not runnable.
   * When the template has sources the user has not allowed (nor chosen to run with their snapshots
   * this session), it asks first (`sourcesQuestion`), and the answer runs it.
   */
  async run(): Promise<void> {
    if (this.state.sourcesQuestion !== null || this.state.hostsQuestion !== null || this.readingSources) return;
    const template = this.openTemplate();
    if (template === null || this.scenario.getState().scenario === null || notRunnable(this.context()) !== null) return;
    if (await this.askAboutSources(template)) return;
    await this.proceed();
  }

  /** Asks about the real hosts not allowed, if any; else runs. */
  private async proceed(): Promise<void> {
    const asked = await askAboutHosts(this.platform, this.state.model.realHosts);
    if ("failure" in asked) this.outcome.fail(asked.failure);
    else if (asked.question !== null) this.update({ hostsQuestion: asked.question });
    else await this.start();
  }

  /** Allows each host the question lists as it was shown, then runs; a refusal stays in the question and nothing runs. */
  async allowHostsAndRun(): Promise<void> {
    const question = this.state.hostsQuestion;
    if (question === null || question.allowing) return;
    this.update({ hostsQuestion: { ...question, allowing: true, failure: null } });
    const failure = await allowHosts(this.platform, question);
    if (failure !== null) {
      this.update({ hostsQuestion: { ...question, allowing: false, failure } });
      return;
    }
    this.update({ hostsQuestion: null });
    await this.start();
  }

  /** Leaves the hosts question: nothing runs (not while allowing). */
  cancelHostsQuestion(): void {
    if (this.state.hostsQuestion?.allowing !== true) this.update({ hostsQuestion: null });
  }

  /**
   * Opens the question about `template`'s sources to ask about (runSources.ts), reading their views
   * only when it has sources and a file; true when it is open. When the views cannot be read, the run
   * goes on: the backend starts only what was allowed, and the run's markers say what was not.
   */
  private async askAboutSources(template: OpenTemplate): Promise<boolean> {
    const sources = template.template.sources ?? [];
    if (sources.length === 0 || template.path === null) return false;
    this.readingSources = true;
    let read: Outcome<SourceView[]>;
    try {
      read = await this.platform.templateSources(template.id);
    } finally {
      this.readingSources = false;
    }
    const views = read.ok ? sourcesToAsk(read.value, template.path, this.declined) : [];
    if (views.length === 0) return false;
    this.asked = { id: template.id, path: template.path, sources };
    this.update({ sourcesQuestion: { views, allowing: false, failure: null } });
    return true;
  }

  /**
   * Allows each source the question lists, then runs. A refusal stays in the question and nothing
   * runs. Should the template's sources (or its file) have changed since the question, it is asked
   * again about them as they are now: only a definition the user saw is allowed.
   */
  async allowSourcesAndRun(): Promise<void> {
    const question = this.state.sourcesQuestion;
    const asked = this.asked;
    if (question === null || question.allowing || asked === null) return;
    const template = this.openTemplate();
    if (
      template?.id !== asked.id ||
      template.path !== asked.path ||
      !sameJsonIgnoringUndefined(template.template.sources ?? [], asked.sources)
    ) {
      this.closeSourcesQuestion();
      return this.run();
    }
    this.update({ sourcesQuestion: { ...question, allowing: true, failure: null } });
    for (const [index, view] of question.views.entries()) {
      const allowed = await this.platform.allowSource(template.id, view.name);
      if (!allowed.ok) {
        const failure = failureOf(`Source '${view.name}' was not allowed`, allowed.error);
        this.update({ sourcesQuestion: { ...question, allowing: false, failure } });
        if (index > 0) this.sourcesAllowed();
        return;
      }
    }
    this.sourcesAllowed();
    this.closeSourcesQuestion();
    await this.proceed();
  }

  /** Runs without starting the sources the question lists; they are not asked about again this session. */
  async runWithSnapshots(): Promise<void> {
    const question = this.state.sourcesQuestion;
    const asked = this.asked;
    if (question === null || question.allowing || asked === null) return;
    this.declined = withDeclined(this.declined, asked.path, question.views);
    this.closeSourcesQuestion();
    await this.proceed();
  }

  /** Leaves the sources question: nothing runs (not while allowing). */
  cancelSourcesQuestion(): void {
    if (this.state.sourcesQuestion?.allowing !== true) this.closeSourcesQuestion();
  }

  private closeSourcesQuestion(): void {
    this.asked = null;
    this.update({ sourcesQuestion: null });
  }

  /** Runs the comparison, once the sources question (if any) was answered. */
  private async start(): Promise<void> {
    const template = this.openTemplate();
    const open = this.scenario.getState().scenario;
    if (template === null || open === null || notRunnable(this.context()) !== null) return;
    const { model } = this.state;
    await this.scenario.idle();
    if (this.study.getState().phase === "running") return;
    this.outcome.forgetNotice();
    const settings: ComparisonSettings = {
      adapters: [...model.adapters],
      hosts: [...model.hosts],
      realHosts: [...model.realHosts],
      live: liveRunOf(model),
      relaySession: relaySessionOf(this.state, template.template),
      priceAs: priceAsOf(this.state),
    };
    if (this.study.repeats()) {
      // The study takes the single comparison's place on the page.
      this.update({ run: null, picked: null, detail: { kind: "none" } });
      await this.study.run(template.id, open.id, settings);
      return;
    }
    this.study.forget();
    const id = ++this.runs;
    const lanes = lanesOf(model);
    this.update({
      run: {
        id,
        status: "running",
        lanes,
        started: [],
        events: noEvents(lanes),
        writing: {},
        report: null,
        failure: null,
        inputs: inputsOf(open.scenario, template.template),
      },
      picked: null,
      detail: { kind: "none" },
    });
    const result = await this.platform.runComparison(template.id, open.id, id, settings, (progress) => {
      const run = this.state.run;
      if (run?.id !== id) return;
      if (progress.type === "run_started") this.update({ run: { ...run, started: [...run.started, progress.lane] } });
      else if (progress.type === "text") {
        const writing = { ...run.writing, [progress.lane]: (run.writing[progress.lane] ?? "") + progress.text };
        this.update({ run: { ...run, writing } });
      } else {
        const events = { ...run.events, [progress.lane]: [...(run.events[progress.lane] ?? []), progress.event] };
        // A model_call event comes once the answer is whole: what was being written is in it.
        const writing = progress.event.type === "model_call" ? { ...run.writing, [progress.lane]: "" } : run.writing;
        this.update({ run: { ...run, events, writing } });
      }
    });
    const run = this.state.run;
    if (run?.id !== id) return;
    if (result.ok) {
      performance.mark(COMPARISON_ANSWERED);
      this.update({ run: { ...run, status: "finished", report: result.value } });
    } else if (result.error.code === "cancelled") this.update({ run: { ...run, status: "cancelled" } });
    else
      this.update({
        run: { ...run, status: "failed", failure: failureOf("The comparison did not run", result.error) },
      });
  }

  /** Stops the comparison under way before its next model call. */
  async cancel(): Promise<void> {
    const run = this.state.run;
    if (run?.status !== "running") return;
    const result = await this.platform.cancelComparison(run.id);
    if (!result.ok) this.outcome.fail(failureOf("The comparison was not cancelled", result.error));
  }

  /** Picks an event on the timeline and fetches the request and answer of its model call. */
  async pick(lane: Lane, event: RunEvent): Promise<void> {
    const run = this.state.run;
    if (run === null) return;
    const callIndex = callIndexOf(event, run.events[lane] ?? []);
    this.update({
      picked: { lane, event },
      detail: callIndex === null || run.report === null ? { kind: "none" } : { kind: "loading" },
    });
    if (callIndex === null || run.report === null) return;
    const [result, against] = await Promise.all([
      this.platform.comparisonCall(run.id, lane, callIndex),
      this.againstCall(run.id, lane, callIndex),
    ]);
    if (this.state.picked?.event !== event) return;
    this.update({
      detail: result.ok
        ? { kind: "ready", call: result.value, against }
        : { kind: "failed", failure: failureOf("The request is not available", result.error) },
    });
  }

  /**
   * The request the picked call is diffed against, under the chosen target; none when there is no
   * such call (the first call, a lane that made fewer calls).
   */
  private async againstCall(runId: number, lane: Lane, callIndex: number): Promise<AgainstCall | null> {
    const place = againstPlace(this.state.diffTarget, lane, callIndex);
    if (place === null) return null;
    const result = await this.platform.comparisonCall(runId, place.lane, place.callIndex);
    return result.ok ? { ...place, call: result.value } : null;
  }

  /** Chooses what the picked call's request is diffed against, and diffs it so. */
  async setDiffTarget(target: DiffTarget): Promise<void> {
    this.update({ diffTarget: target });
    const { picked } = this.state;
    if (picked !== null) await this.pick(picked.lane, picked.event);
  }

  /**
   * Lets go of the picked event: the event detail closes. A request still on its way for it is
   * dropped when it arrives.
   */
  unpick(): void {
    if (this.state.picked === null) return;
    this.update({ picked: null, detail: { kind: "none" } });
  }

  /** Asks where to write the comparison report in `format` (JSON, or Markdown for a pull request), then writes it. */
  exportReport(format: ReportFormat = "json"): Promise<void> {
    const report = this.state.run?.report ?? null;
    if (report === null) return Promise.resolve();
    const markdown = format === "markdown";
    const suggested = `${report.template}-${report.scenario}.comparison.${markdown ? "md" : "json"}`;
    const purpose = markdown ? "save_markdown" : "save_report";
    return this.exportTo(purpose, suggested, "The report was not written", async (id, path) => {
      const written = await this.platform.exportComparison(id, path, format);
      const what = markdown ? "the comparison as Markdown" : "the comparison report";
      return written.ok ? { ok: true, value: `Wrote ${what} to ${path}` } : written;
    });
  }

  /**
   * Reads the chart as drawn (see runs/chartImage.ts) from `source`, the Compare page's, until the
   * function returned is called (the page is gone).
   */
  drawsChart(source: () => ChartPicture | null): () => void {
    this.chartSource = source;
    return () => {
      if (this.chartSource === source) this.chartSource = null;
    };
  }

  /**
   * Asks where to save the finished comparison's chart as `format`, then saves the chart as drawn
   * there; nothing while no chart is drawn.
   */
  exportChart(format: ChartFormat): Promise<void> {
    const report = this.state.run?.report ?? null;
    const drawn = this.chartSource?.() ?? null;
    if (report === null || drawn === null) return Promise.resolve();
    const suggested = `${report.template}-${report.scenario}.chart.${format}`;
    const purpose = format === "svg" ? "save_chart_svg" : "save_chart_png";
    return this.exportTo(purpose, suggested, "The chart was not saved", async (id, path) => {
      let image: ChartImage;
      try {
        image = await chartImage(drawn, format);
      } catch (cause) {
        return { ok: false, error: { code: "internal", message: String(cause), problems: [] } };
      }
      const written = await this.platform.exportChart(id, path, image);
      return written.ok ? { ok: true, value: `Saved the chart as ${format.toUpperCase()} to ${path}` } : written;
    });
  }

  /** The suite open on the Suites page, which a comparison can join as a case. */
  openSuite(): string | null {
    return this.suites.openSuite();
  }

  /** Why the finished comparison cannot become a suite case now (its files must be saved as it ran), or null. */
  suiteCaseProblem(): string | null {
    const template = this.openTemplate();
    const scenario = this.scenario.getState().scenario;
    if (template?.path == null || template.dirty)
      return "Save the template first: a suite case names its file, and runs it as saved";
    if (scenario?.path == null || scenario.dirty)
      return "Save the scenario first: a suite case names its file, and runs it as saved";
    return null;
  }

  /**
   * Adds the finished comparison to `suite` as a case expecting what its runs showed, or to a suite
   * file the user chooses (new or not) when `suite` is null; then shows the suite.
   */
  async addToSuite(suite: string | null): Promise<void> {
    const { run } = this.state;
    const template = this.openTemplate()?.path ?? null;
    const scenario = this.scenario.getState().scenario?.path ?? null;
    if (run?.report == null || template === null || scenario === null) return;
    const problem = this.suiteCaseProblem();
    if (problem !== null) {
      this.outcome.fail({ title: "The case was not added", detail: problem, problems: [] });
      return;
    }
    const folder = scenario.slice(0, scenario.lastIndexOf("/") + 1);
    const suggested = suite ?? `${folder}${run.report.template}.suite.json`;
    const chosen =
      suite === null ? await this.platform.chooseFile("save_suite", suggested) : { ok: true as const, value: suite };
    if (!chosen.ok) {
      this.outcome.fail(failureOf("The case was not added", chosen.error));
      return;
    }
    if (chosen.value === null) return;
    const path = chosen.value;
    const added = await this.platform.addToSuite(run.id, path, template, scenario);
    if (!added.ok) {
      this.outcome.fail(failureOf("The case was not added", added.error));
      return;
    }
    this.outcome.tell(`Added the case “${added.value}” to ${path}`);
    this.suites.show(path);
  }

  /** Asks for a new or empty folder, then writes every model call's request body into it in the shape of `api`. */
  exportRequests(api: RequestShape = "openai-chat"): Promise<void> {
    return this.exportTo("requests_folder", null, "The request bodies were not written", async (id, folder) => {
      const written = await this.platform.exportRequests(id, folder, api);
      const shape = REQUEST_SHAPES[api];
      return written.ok
        ? { ok: true, value: `Wrote ${String(written.value)} request bodies (${shape}) to ${folder}` }
        : written;
    });
  }

  /** Asks where (`purpose`), then has `write` write the finished comparison there and say what it wrote. */
  private async exportTo(
    purpose: FilePurpose,
    suggested: string | null,
    title: string,
    write: (runId: number, path: string) => Promise<Outcome<string>>,
  ): Promise<void> {
    const { run } = this.state;
    if (run === null || run.report === null) return;
    const chosen = await this.platform.chooseFile(purpose, suggested);
    const written = !chosen.ok ? chosen : chosen.value === null ? null : await write(run.id, chosen.value);
    if (written === null) return;
    if (written.ok) this.outcome.tell(written.value);
    else this.outcome.fail(failureOf(title, written.error));
  }
}
