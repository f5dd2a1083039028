// The Hosts page: the host probe (`unfold hosts probe`, spec 13) in the app. What the probe does;
// every real agent host, installed (with its version, chosen for the probe or not) or not; runs per
// host and Probe (which asks first about the hosts not allowed, naming what each starts), Cancel
// while it runs, with the last run that ended; then the matrix: per host, when the revealed tool
// first reached the model as a bar of its runs (the words beside it, never colour alone), whether
// it listed its tools again, kept a stable prefix, where it put the tool, the median run's time and
// Unfold's share of it, and each run, which opens on the History page's timeline. All state and
// actions live in HostsStore.
//
// data-testids (tests select by them; keep them stable):
//   hosts-view                                   the page
//   probe-host (data-name, data-installed)       a host; its checkbox inside when installed
//   probe-runs, probe-start, probe-cancel        runs per host, Probe, Cancel
//   probe-progress                               the last run that ended, while probing
//   probe-failure                                why the last action failed
//   probe-matrix, probe-row (data-host)          the matrix, a host's row
//   probe-visible, probe-bar, probe-segment      the distribution in words, its bar, a segment (data-moment)
//   probe-run (data-id)                          a run kept in the history: opens it
import { useEffect, useSyncExternalStore } from "react";
import type { HostView, ProbedHost, ProbeOfHost } from "../platform";
import { FailureAlert } from "../shared/ActionOutcome";
import { startableHosts } from "../shared/hostConsent";
import { RunHostsDialog } from "../shared/RunHostsDialog";
import "./hosts.css";
import { distributionText, MAX_RUNS, momentText, shareText, type HostsState, type HostsStore } from "./store";

export function HostsView({ store, onOpenRun }: { store: HostsStore; onOpenRun: (id: number) => void }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  useEffect(() => {
    void store.load();
  }, [store]);
  return (
    <div className="hosts-view" data-testid="hosts-view">
      <section className="hosts-intro" aria-label="The host probe">
        <h2>Hosts</h2>
        <p>
          The probe runs each real agent host against a built-in template whose summarized section reveals a tool, and
          counts at which request the host first showed that tool to the model. Each run is kept in the History.
        </p>
      </section>
      {state.failure !== null && (
        <FailureAlert
          failure={state.failure}
          testId="probe-failure"
          onDismiss={() => {
            store.dismiss();
          }}
        />
      )}
      <HostChooser store={store} state={state} />
      {state.probes !== null && <ProbeMatrix probes={state.probes} onOpenRun={onOpenRun} />}
      {state.question !== null && (
        <RunHostsDialog
          question={state.question}
          onAllow={() => void store.allowAndProbe()}
          onCancel={() => {
            store.cancelQuestion();
          }}
        />
      )}
    </div>
  );
}

function HostChooser({ store, state }: { store: HostsStore; state: HostsState }) {
  const { hosts, chosen, runs, probing } = state;
  if (hosts === null) return <p className="notice">Reading the hosts…</p>;
  const installed = startableHosts(hosts);
  const missing = hosts.filter((host) => host.name !== "command" && !installed.includes(host));
  return (
    <section className="probe-setup" aria-label="Hosts to probe">
      <ul className="probe-hosts">
        {installed.map((host) => (
          <li key={host.name} data-testid="probe-host" data-name={host.name} data-installed="true">
            <label title={host.program ?? undefined}>
              <input
                type="checkbox"
                checked={chosen.includes(host.name)}
                disabled={probing !== null}
                onChange={(event) => {
                  store.choose(host.name, event.target.checked);
                }}
              />{" "}
              {hostText(host)}
            </label>
          </li>
        ))}
        {missing.map((host) => (
          <li key={host.name} data-testid="probe-host" data-name={host.name} data-installed="false" className="missing">
            {host.name}: not installed
          </li>
        ))}
      </ul>
      <div className="toolbar probe-toolbar">
        <label>
          Runs per host{" "}
          <input
            type="number"
            data-testid="probe-runs"
            min={1}
            max={MAX_RUNS}
            value={runs}
            disabled={probing !== null}
            onChange={(event) => {
              store.setRuns(event.target.valueAsNumber);
            }}
          />
        </label>
        <button
          type="button"
          className="primary"
          data-testid="probe-start"
          disabled={probing !== null || chosen.length === 0}
          title={
            chosen.length === 0 ? "Choose a host to probe" : `Probe ${chosen.join(", ")}, ${String(runs)} runs each`
          }
          onClick={() => void store.probe()}
        >
          {probing === null ? "Probe" : "Probing…"}
        </button>
        {probing !== null && (
          <button
            type="button"
            data-testid="probe-cancel"
            aria-disabled={probing.cancelling}
            onClick={() => void store.cancel()}
          >
            {probing.cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
        {probing !== null && (
          <span role="status" data-testid="probe-progress">
            {probing.last === null
              ? "Starting the first host…"
              : `${probing.last.host}: run ${String(probing.last.run)} of ${String(probing.last.of)} ${probing.last.status}`}
          </span>
        )}
      </div>
    </section>
  );
}

/** "claude-code 2.1.197". */
function hostText(host: HostView): string {
  return host.version === null ? host.name : `${host.name} ${host.version}`;
}

function ProbeMatrix({ probes, onOpenRun }: { probes: ProbeOfHost[]; onOpenRun: (id: number) => void }) {
  return (
    <section className="probe-results" aria-label="What the probe measured">
      <table className="probe-matrix" data-testid="probe-matrix">
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Tool first shown</th>
            <th scope="col" title="Runs in which the host listed its tools again after the section was read">
              Re-listed
            </th>
            <th scope="col" title="Runs whose prompt stayed a cached prefix: no break but where the tools changed">
              Prefix stable
            </th>
            <th scope="col" title="Where the host put the new tool among the server's">
              Tool order
            </th>
            <th scope="col" title="The median run's wall time, and the time Unfold's servers worked in it">
              A run · Unfold
            </th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {probes.map(({ probed, kept_runs, not_kept }) => (
            <ProbeRow
              key={probed.host}
              probed={probed}
              kept={kept_runs.filter((id) => id !== null)}
              notKept={not_kept}
              onOpenRun={onOpenRun}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** "n/N": runs of `probed` that did something. */
function ofRuns(count: number, probed: ProbedHost): string {
  return `${String(count)}/${String(probed.runs)}`;
}

function ProbeRow({
  probed,
  kept,
  notKept,
  onOpenRun,
}: {
  probed: ProbedHost;
  /** The ids its runs are kept under in the history. */
  kept: number[];
  notKept: string | null;
  onOpenRun: (id: number) => void;
}) {
  const order = Object.entries(probed.tool_order).map(([where, runs]) => `${where} ${String(runs)}`);
  return (
    <tr data-testid="probe-row" data-host={probed.host}>
      <th scope="row">
        {probed.host} <span className="probe-muted">{probed.version ?? ""}</span>
      </th>
      <td>
        <VisibleBar visible={probed.visible_at} runs={probed.runs} />
        <span data-testid="probe-visible">{distributionText(probed)}</span>
        {probed.incomplete > 0 && (
          <span className="probe-incomplete"> ({ofRuns(probed.incomplete, probed)} never read the section)</span>
        )}
      </td>
      <td>{ofRuns(probed.relisted, probed)}</td>
      <td>{ofRuns(probed.prefix_stable, probed)}</td>
      <td>{order.length === 0 ? "-" : order.join(", ")}</td>
      <td>
        {`${((probed.median_wall_ms ?? 0) / 1000).toFixed(1)} s`} · {shareText(probed)}
      </td>
      <td>
        {kept.length === 0 ? (
          <span className="probe-muted" title={notKept ?? "The history is off"}>
            not kept
          </span>
        ) : (
          <span className="probe-runs">
            {kept.map((id, index) => (
              <button
                key={id}
                type="button"
                data-testid="probe-run"
                data-id={id}
                title={`Open run ${String(index + 1)} of ${probed.host} on the History page`}
                onClick={() => {
                  onOpenRun(id);
                }}
              >
                {index + 1}
              </button>
            ))}
          </span>
        )}
      </td>
    </tr>
  );
}

/** The runs as a bar, a segment per moment, as wide as its share of the runs. */
function VisibleBar({ visible, runs }: { visible: Partial<Record<string, number>>; runs: number }) {
  return (
    <span className="probe-bar" data-testid="probe-bar" aria-hidden="true">
      {Object.entries(visible).map(([moment, count = 0]) => (
        <span
          key={moment}
          className={`probe-segment moment-${moment.startsWith("late_") ? "late" : moment}`}
          data-testid="probe-segment"
          data-moment={moment}
          style={{ flexGrow: count / Math.max(runs, 1) }}
          title={`${momentText(moment)}: ${String(count)} of ${String(runs)} runs`}
        />
      ))}
    </span>
  );
}
