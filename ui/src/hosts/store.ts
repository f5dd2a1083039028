// The Hosts page's state and actions, without React: the real agent hosts (installed or not, with
// their versions), the ones chosen for the probe and how many runs each, the question about the
// hosts not allowed yet, the probe under way (its last run's end, and its cancel), and the last
// probe's matrix with the ids its runs are kept under in the history. It lives in the workspace,
// so the page finds its last probe again when it shows. React reads it through
// `subscribe`/`getState`.
import type { HostView, Platform, ProbedHost, ProbeOfHost, ProbeProgress } from "../platform";
import { ExternalStore } from "../shared/ExternalStore";
import { failureOf, type Failure } from "../shared/failure";
import { allowHosts, askAboutHosts, startableHosts, type HostsQuestion } from "../shared/hostConsent";

/** Runs per host the page starts with: enough to see a race, a minute or so a host. */
export const DEFAULT_RUNS = 5;
/** The most runs per host the page asks for (the command line takes up to 100). */
export const MAX_RUNS = 20;

export interface HostsState {
  /** Every real host, installed or not (null until read). */
  hosts: HostView[] | null;
  /** The names of the hosts to probe. */
  chosen: string[];
  /** Runs per host. */
  runs: number;
  /** The question about the chosen hosts not allowed yet, while it is open. */
  question: HostsQuestion | null;
  /** The probe under way: the last run that ended (none yet), and whether a cancel was asked. */
  probing: { last: ProbeProgress | null; cancelling: boolean } | null;
  /** The last probe's answer, a host each (null: none yet this session). */
  probes: ProbeOfHost[] | null;
  /** Why the last action failed, until the next one. */
  failure: Failure | null;
}

/** "next call", "1 call late", "2 calls late", "next turn", "never": when a run's tool reached the model. */
export function momentText(moment: string): string {
  if (moment === "next_call") return "next call";
  if (moment === "never") return "never";
  if (moment === "next_turn") return "next turn";
  const late = /^late_(\d+)$/.exec(moment);
  if (late?.[1] === undefined) return moment;
  return late[1] === "1" ? "1 call late" : `${late[1]} calls late`;
}

/** "next call 3 · 1 call late 2": the distribution of `probed`'s runs, earliest first. */
export function distributionText(probed: ProbedHost): string {
  return Object.entries(probed.visible_at)
    .map(([moment, runs]) => `${momentText(moment)} ${String(runs)}`)
    .join(" · ");
}

/** "21 ms (0.5 %)": Unfold's servers' time in the median run, and its share of the run. */
export function shareText(probed: ProbedHost): string {
  const servers = probed.median_servers_ms ?? 0;
  const wall = probed.median_wall_ms ?? 0;
  if (wall <= 0) return `${String(servers)} ms`;
  return `${String(servers)} ms (${((servers * 100) / wall).toFixed(1)} %)`;
}

export class HostsStore extends ExternalStore<HostsState> {
  constructor(private readonly platform: Platform) {
    super({ hosts: null, chosen: [], runs: DEFAULT_RUNS, question: null, probing: null, probes: null, failure: null });
  }

  /** Reads the hosts (again); the first time, every installed one is chosen. */
  async load(): Promise<void> {
    const read = await this.platform.realHosts();
    if (!read.ok) {
      this.update({ failure: failureOf("The hosts could not be read", read.error) });
      return;
    }
    const first = this.state.hosts === null;
    const names = startableHosts(read.value).map((host) => host.name);
    const chosen = first ? names : this.state.chosen.filter((name) => names.includes(name));
    this.update({ hosts: read.value, chosen });
  }

  /** Chooses the host `name` for the probe, or leaves it out. */
  choose(name: string, chosen: boolean): void {
    const others = this.state.chosen.filter((other) => other !== name);
    const order = startableHosts(this.state.hosts ?? []).map((host) => host.name);
    const next = chosen ? [...others, name] : others;
    this.update({ chosen: order.filter((host) => next.includes(host)) });
  }

  /** Sets the runs per host, kept between 1 and MAX_RUNS. */
  setRuns(runs: number): void {
    if (Number.isFinite(runs)) this.update({ runs: Math.min(MAX_RUNS, Math.max(1, Math.round(runs))) });
  }

  /** Probes the chosen hosts, asking first about those not allowed. Nothing while one is under way. */
  async probe(): Promise<void> {
    if (this.state.probing !== null || this.state.question !== null || this.state.chosen.length === 0) return;
    const asked = await askAboutHosts(this.platform, this.state.chosen);
    if ("failure" in asked) this.update({ failure: asked.failure });
    else if (asked.question !== null) this.update({ question: asked.question });
    else await this.start();
  }

  /** Allows each host the question lists, as it was shown, then probes; a refusal stays in the question. */
  async allowAndProbe(): Promise<void> {
    const question = this.state.question;
    if (question === null || question.allowing) return;
    this.update({ question: { ...question, allowing: true, failure: null } });
    const failure = await allowHosts(this.platform, question);
    if (failure !== null) {
      this.update({ question: { ...question, allowing: false, failure } });
      return;
    }
    this.update({ question: null });
    await this.start();
  }

  /** Leaves the question: nothing runs (not while allowing). */
  cancelQuestion(): void {
    if (this.state.question?.allowing !== true) this.update({ question: null });
  }

  /** Stops the probe under way after the run it is in. */
  async cancel(): Promise<void> {
    const probing = this.state.probing;
    if (probing === null || probing.cancelling) return;
    this.update({ probing: { ...probing, cancelling: true } });
    await this.platform.cancelProbe();
  }

  /** Puts the last failure away. */
  dismiss(): void {
    this.update({ failure: null });
  }

  private async start(): Promise<void> {
    this.update({ probing: { last: null, cancelling: false }, failure: null });
    const answer = await this.platform.probeHosts(this.state.chosen, this.state.runs, (last) => {
      const probing = this.state.probing;
      if (probing !== null) this.update({ probing: { ...probing, last } });
    });
    if (answer.ok) this.update({ probing: null, probes: answer.value });
    else if (answer.error.code === "cancelled") this.update({ probing: null });
    else this.update({ probing: null, failure: failureOf("The probe failed", answer.error) });
  }
}
