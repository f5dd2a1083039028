// A study on the Compare page (spec 14): while it runs, its progress, what it has spent and
// Cancel; then its answer first (each pair's verdict in words, the A/A control's noise), each
// lane's success with its Wilson interval and pass^k, and a metric's runs per lane as dots over
// their quartiles beside each pair's difference against the A/A noise band. Any repetition of any
// lane opens on the History's timeline: click its dot, or name it below the plot.
import { useMemo, useState } from "react";
import type { StudyLane, StudyReport } from "../platform";
import { moneyText } from "../shared/words";
import type { StudyState } from "./store";
import { runKey } from "./store";
import { useStudyDrawnMark } from "./studyDrawnMark";
import { differencePlot, ROW_HEIGHT, STUDY_METRICS, stripPlot, type DifferencePlot, type StripPlot } from "./studyPlot";

/** The width the plots are drawn at; the SVG scales to its box. */
const PLOT_WIDTH = 720;

/** A fraction as a percentage with one decimal: "12.5 %", "−3.0 %" (one minus sign). */
function percent(fraction: number, sign = false): string {
  const figure = `${Math.abs(fraction * 100).toFixed(1)} %`;
  return fraction < 0 ? `\u2212${figure}` : sign && fraction > 0 ? `+${figure}` : figure;
}

/** A metric's value as the tooltips write it. */
function metricText(metric: string, value: number): string {
  if (metric === "cost_usd") return moneyText(value, "USD");
  return Math.round(value).toLocaleString("en-US");
}

/** A tick's value, as short as its round value allows: "$0.004", "1,200". */
function tickText(metric: string, value: number): string {
  if (metric === "cost_usd") return `$${Number(value.toPrecision(3)).toString()}`;
  return value.toLocaleString("en-US");
}

/** A tick of the differences' axis: "+20 %", "−5 %", "0 %". */
function percentTick(fraction: number): string {
  const figure = `${Number(Math.abs(fraction * 100).toPrecision(3)).toString()} %`;
  return fraction < 0 ? `\u2212${figure}` : fraction > 0 ? `+${figure}` : figure;
}

function metricLabel(metric: string): string {
  return STUDY_METRICS.find((m) => m.id === metric)?.label ?? metric;
}

export function StudyView({
  state,
  onCancel,
  onOpenRun,
}: {
  state: StudyState;
  onCancel: () => void;
  /** Opens the kept run `id` on the History's timeline. */
  onOpenRun: (id: number) => void;
}) {
  useStudyDrawnMark(state.id, state.phase === "finished");
  return (
    <section className="study" data-testid="study" aria-label="Study">
      <StudyStatus state={state} onCancel={onCancel} />
      {state.report !== null && <StudyAnswer report={state.report} state={state} onOpenRun={onOpenRun} />}
    </section>
  );
}

function StudyStatus({ state, onCancel }: { state: StudyState; onCancel: () => void }) {
  const spent = state.spentUsd === null ? null : `${moneyText(state.spentUsd, "USD")} spent`;
  if (state.phase === "running") {
    return (
      <div className="study-status" data-testid="study-progress" role="status">
        <progress max={state.planned} value={state.done} aria-label="Repetitions done" />
        <span>
          {state.done.toLocaleString("en-US")} of {state.planned.toLocaleString("en-US")} repetitions
          {spent === null ? "" : ` · ${spent}`}
          {state.cancelling ? " · cancelling…" : ""}
        </span>
        <button type="button" data-testid="cancel-study" disabled={state.cancelling} onClick={onCancel}>
          Cancel
        </button>
      </div>
    );
  }
  if (state.phase === "failed" && state.failure !== null) {
    return (
      <p className="notice error" data-testid="study-failed" role="alert">
        {state.failure.title}: {state.failure.detail}
      </p>
    );
  }
  const stopped = state.report?.stopped;
  if (stopped == null) return null;
  const why =
    stopped.reason === "cancelled"
      ? "it was cancelled"
      : `the next conversation, about ${moneyText(stopped.next_usd ?? 0, "USD")}, would have passed ${moneyText(stopped.max_cost_usd ?? 0, "USD")}`;
  const leftOut =
    stopped.left_out_usd == null ? "" : `; ${moneyText(stopped.left_out_usd, "USD")} more on repetitions left out`;
  return (
    <p className="notice" data-testid="study-stopped" role="status">
      Stopped after {stopped.after} of {state.report?.repeat} repetitions ({moneyText(stopped.spent_usd ?? 0, "USD")}
      {leftOut}): {why}. The figures below are of those that ended.
    </p>
  );
}

function StudyAnswer({
  report,
  state,
  onOpenRun,
}: {
  report: StudyReport;
  state: StudyState;
  onOpenRun: (id: number) => void;
}) {
  const priced = report.lanes.some((lane) => lane.summary.metrics.cost_usd !== undefined);
  const [metric, setMetric] = useState(priced ? "cost_usd" : "prompt_tokens");
  const strip = useMemo(() => stripPlot(report, metric, PLOT_WIDTH), [report, metric]);
  const differences = useMemo(() => differencePlot(report, metric, PLOT_WIDTH), [report, metric]);
  const open = (lane: string, repetition: number) => {
    const id = state.kept[runKey(lane, repetition)];
    if (id !== undefined) onOpenRun(id);
  };
  return (
    <>
      <section className="study-verdicts" data-testid="study-verdicts" aria-label="Verdicts">
        <h2>
          {report.repeat.toLocaleString("en-US")} repetitions of {report.scenario}
        </h2>
        <ul>
          {report.pairs.map((pair) => (
            <li key={`${pair.a}-${pair.b}`} data-testid="study-verdict">
              <strong>
                {pair.a} against {pair.b}:
              </strong>{" "}
              {pair.verdict}
            </li>
          ))}
          {report.aa != null && (
            <li className="study-aa" data-testid="study-aa">
              <strong>A/A control, {report.aa.b} run again:</strong> {report.aa.verdict}
            </li>
          )}
        </ul>
        <p className="study-fairness">{fairnessText(report)}</p>
      </section>
      <LaneTable report={report} />
      <section className="study-plots" aria-label="Runs per lane">
        <label className="study-metric">
          Metric{" "}
          <select
            data-testid="study-metric"
            value={metric}
            onChange={(event) => {
              setMetric(event.target.value);
            }}
          >
            {STUDY_METRICS.map(({ id, label }) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <StripFigure plot={strip} metric={metric} onOpen={open} />
        {differences.bars.length > 0 && (
          <p className="study-caption">
            Each pair&apos;s mean difference in {metricLabel(metric).toLowerCase()}, relative to the second lane, with
            its 95 % interval
            {differences.band === null ? "" : "; the grey band is the A/A control's, the noise to beat"}.
          </p>
        )}
        <DifferenceFigure plot={differences} />
        <OpenRepetition report={report} state={state} onOpen={open} />
      </section>
    </>
  );
}

function fairnessText(report: StudyReport): string {
  switch (report.cache_fairness) {
    case "nonce":
      return "Each conversation's prompts began with a nonce of their own, so no lane was served from a cache another warmed; the lanes took turns at running first.";
    case "warmup":
      return "A warm-up call before each repetition filled the cache for every lane alike; the lanes took turns at running first.";
    case "scripted":
      return "The scripted model: every repetition is the same, so the intervals are points.";
  }
}

function LaneTable({ report }: { report: StudyReport }) {
  // pass^1 is the success rate; three larger k say how often a lane holds up run after run.
  const ks = Object.keys(report.lanes[0]?.summary.pass_hat_k ?? {})
    .filter((k) => Number(k) > 1)
    .slice(0, 3);
  return (
    <div className="study-lanes-box">
      <table className="study-lanes" data-testid="study-lanes">
        <caption>
          Per lane: completed runs with their 95 % Wilson interval, and pass^k (every one of k runs completes)
        </caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Completed</th>
            {ks.map((k) => (
              <th scope="col" key={k}>
                pass^{k}
              </th>
            ))}
            <th scope="col">Mean cost</th>
            <th scope="col">Mean prompt tokens</th>
          </tr>
        </thead>
        <tbody>
          {report.lanes.map((lane) => (
            <LaneRow key={lane.lane} lane={lane} ks={ks} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LaneRow({ lane, ks }: { lane: StudyLane; ks: string[] }) {
  const { success, metrics, pass_hat_k } = lane.summary;
  const [lo, hi] = success.wilson95 ?? [null, null];
  const cost = metrics.cost_usd?.mean;
  const prompt = metrics.prompt_tokens?.mean;
  return (
    <tr data-testid="study-lane" data-lane={lane.lane}>
      <th scope="row">{lane.lane}</th>
      <td>
        {success.count}/{success.n}{" "}
        <span className="interval">
          [{percent(lo ?? 0)}, {percent(hi ?? 0)}]
        </span>
      </td>
      {ks.map((k) => (
        <td key={k}>{percent(pass_hat_k[k] ?? 0)}</td>
      ))}
      <td>{cost == null ? "no price" : moneyText(cost, "USD")}</td>
      <td>{prompt == null ? "–" : Math.round(prompt).toLocaleString("en-US")}</td>
    </tr>
  );
}

function StripFigure({
  plot,
  metric,
  onOpen,
}: {
  plot: StripPlot;
  metric: string;
  onOpen: (lane: string, repetition: number) => void;
}) {
  return (
    <svg
      className="study-strip"
      data-testid="study-strip"
      viewBox={`0 0 ${plot.width} ${plot.height}`}
      role="img"
      aria-label={`Each lane's runs: ${metricLabel(metric)}`}
    >
      {plot.ticks.map((tick) => (
        <g key={tick.value} className="tick">
          <line x1={tick.x} x2={tick.x} y1={0} y2={plot.height - 20} />
          <text x={tick.x} y={plot.height - 6} textAnchor="middle">
            {tickText(metric, tick.value)}
          </text>
        </g>
      ))}
      {plot.rows.map((row) => (
        <g key={row.lane} className="lane-row" data-testid="study-row" data-lane={row.lane}>
          <text className="lane-name" x={8} y={row.y + 4}>
            {row.lane}
          </text>
          {row.box !== null && (
            <g className="box">
              <line x1={row.box.min} x2={row.box.max} y1={row.y} y2={row.y} />
              <rect
                x={row.box.q1}
                y={row.y - ROW_HEIGHT / 4}
                width={Math.max(1, row.box.q3 - row.box.q1)}
                height={ROW_HEIGHT / 2}
              />
              <line
                className="median"
                x1={row.box.median}
                x2={row.box.median}
                y1={row.y - ROW_HEIGHT / 4}
                y2={row.y + ROW_HEIGHT / 4}
              />
            </g>
          )}
          {row.columns.map((column) => (
            <rect
              key={column.x}
              className="count"
              x={column.x - 1.5}
              y={row.y - column.height / 2}
              width={3}
              height={column.height}
            >
              <title>{`${column.count.toLocaleString("en-US")} runs`}</title>
            </rect>
          ))}
          {row.dots.map((dot) => (
            <circle
              key={dot.repetition}
              className={dot.completed ? "dot" : "dot not-completed"}
              data-testid="study-dot"
              data-repetition={dot.repetition}
              cx={dot.x}
              cy={dot.y}
              r={3}
              onClick={() => {
                onOpen(row.lane, dot.repetition);
              }}
            >
              <title>{`${row.lane}, repetition ${dot.repetition}: ${metricText(metric, dot.value)}${dot.completed ? "" : " (did not complete)"}`}</title>
            </circle>
          ))}
        </g>
      ))}
    </svg>
  );
}

function DifferenceFigure({ plot }: { plot: DifferencePlot }) {
  if (plot.bars.length === 0) return null;
  const height = plot.bars.length * 28 + 24;
  return (
    <svg
      className="study-differences"
      data-testid="study-differences"
      viewBox={`0 0 ${plot.width} ${height}`}
      role="img"
      aria-label="Each pair's difference with its 95 % interval; the grey band is the A/A control's"
    >
      {plot.band !== null && (
        <rect
          className="noise-band"
          data-testid="study-noise-band"
          x={plot.band[0]}
          y={0}
          width={Math.max(1, plot.band[1] - plot.band[0])}
          height={height - 20}
        >
          <title>The A/A control: the noise a difference must leave</title>
        </rect>
      )}
      <line className="zero" x1={plot.zero} x2={plot.zero} y1={0} y2={height - 20} />
      {plot.ticks.map((tick) => (
        <text key={tick.value} x={tick.x} y={height - 6} textAnchor="middle">
          {percentTick(tick.value)}
        </text>
      ))}
      {plot.bars.map((bar, index) => {
        const y = index * 28 + 14;
        return (
          <g
            key={bar.label}
            className={bar.beyondNoise ? "difference beyond" : "difference"}
            data-testid="study-difference"
          >
            <text className="lane-name" x={8} y={y + 4}>
              {bar.label}
            </text>
            {bar.lo !== null && bar.hi !== null && bar.mean !== null && bar.relative !== null ? (
              <>
                <line x1={bar.lo} x2={bar.hi} y1={y} y2={y} />
                <circle cx={bar.mean} cy={y} r={4}>
                  <title>{`${percent(bar.relative[1], true)} [${percent(bar.relative[0], true)}, ${percent(bar.relative[2], true)}]`}</title>
                </circle>
              </>
            ) : (
              <text x={plot.zero + 6} y={y + 4}>
                no relative difference
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function OpenRepetition({
  report,
  state,
  onOpen,
}: {
  report: StudyReport;
  state: StudyState;
  onOpen: (lane: string, repetition: number) => void;
}) {
  const [lane, setLane] = useState(report.lanes[0]?.lane ?? "");
  const [repetition, setRepetition] = useState(1);
  const kept = state.kept[runKey(lane, repetition)] !== undefined;
  return (
    <form
      className="study-open"
      onSubmit={(event) => {
        event.preventDefault();
        onOpen(lane, repetition);
      }}
    >
      <label>
        Lane{" "}
        <select
          data-testid="study-open-lane"
          value={lane}
          onChange={(event) => {
            setLane(event.target.value);
          }}
        >
          {report.lanes.map((l) => (
            <option key={l.lane}>{l.lane}</option>
          ))}
        </select>
      </label>
      <label>
        Repetition{" "}
        <input
          data-testid="study-open-repetition"
          type="number"
          min={1}
          max={report.repeat}
          value={repetition}
          onChange={(event) => {
            setRepetition(Number(event.target.value));
          }}
        />
      </label>
      <button
        type="submit"
        data-testid="study-open-run"
        disabled={!kept}
        title={kept ? "Open this run on the History's timeline" : "The history did not keep this run"}
      >
        Open on the timeline
      </button>
    </form>
  );
}
