// The host probe as the fake platform runs it: each allowed host "runs" `repeat` times, each run's
// end told to the listener, and measures what `measurements` says (else: the tool at the next call
// in every run), its runs kept under ids from 501. A test may hold the probe after its first run
// (`hold`), to see the progress and cancel it.
import type { Outcome, ProbedHost, ProbeOfHost, ProbeProgress } from "../platform";

/** A measurement of `host` over `runs` runs, the tool shown at `visible_at`. */
export function probedHost(host: string, runs: number, visible_at: Record<string, number>): ProbedHost {
  return {
    host,
    version: "1.0.0",
    runs,
    visible_at,
    relisted: runs,
    prefix_stable: runs,
    tool_order: { end: runs },
    incomplete: 0,
    median_wall_ms: 4200,
    median_servers_ms: 21,
  };
}

export class FakeProbe {
  /** What each host measures, by name. */
  readonly measurements = new Map<string, Record<string, number>>();
  /** Hold the probe after its first run until `release`. */
  hold = false;
  private held: (() => void) | null = null;
  private cancelled = false;
  private nextRunId = 501;

  constructor(private readonly allowed: ReadonlySet<string>) {}

  /** Lets a held probe go on. */
  release(): void {
    this.held?.();
    this.held = null;
  }

  async probeHosts(
    names: string[],
    repeat: number,
    onProgress: (progress: ProbeProgress) => void,
  ): Promise<Outcome<ProbeOfHost[]>> {
    this.cancelled = false;
    const notAllowed = names.find((name) => !this.allowed.has(name));
    if (notAllowed !== undefined) {
      return {
        ok: false,
        error: { code: "invalid_request", message: `starting ${notAllowed} needs your consent`, problems: [] },
      };
    }
    const probes: ProbeOfHost[] = [];
    for (const host of names) {
      const kept: number[] = [];
      for (let run = 1; run <= repeat; run++) {
        onProgress({ host, run, of: repeat, status: "completed" });
        kept.push(this.nextRunId++);
        if (this.hold) await new Promise<void>((resolve) => (this.held = resolve));
        if (this.wasCancelled())
          return { ok: false, error: { code: "cancelled", message: "the run was cancelled", problems: [] } };
      }
      const visible = this.measurements.get(host) ?? { next_call: repeat };
      probes.push({ probed: probedHost(host, repeat, visible), kept_runs: kept, not_kept: null });
    }
    return { ok: true, value: probes };
  }

  /** Read through a call: a cancel comes in while the probe awaits. */
  private wasCancelled(): boolean {
    return this.cancelled;
  }

  cancelProbe(): Promise<Outcome<null>> {
    this.cancelled = true;
    this.release();
    return Promise.resolve({ ok: true, value: null });
  }
}
