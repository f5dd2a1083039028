// The prompt tokens of every model call, one line per lane, as an SVG chart: per call or the lane's
// tokens so far (a toggle), every call on the x axis (thinned to a round step when they would
// crowd), a tooltip on each point (lane, call, attempt, tokens), a marker where a lane restarted,
// discarded calls drawn faint, each lane with its own dash and marker and drawn a little to the side
// so equal values stay apart, a legend that says where lanes coincide, and the chart in words for
// assistive technology. It draws the calls that have arrived, so it grows while a comparison runs.
// The geometry and the words are chart.ts's.
//
// data-testids: token-chart (the figure), chart-per-call and chart-cumulative (the mode's radio
// buttons), chart-max (the y axis' top), chart-tick (data-call; the labelled calls), chart-point
// (data-lane, data-call, data-attempt, data-tokens, data-value, data-discarded; its <title> is the
// tooltip), chart-restart (data-lane, data-after-call; its <title> says why), chart-coincide (the
// legend's line where lanes coincide).
import { useId, useState } from "react";
import type { Lane } from "../platform";
import {
  chartDescription,
  chartLayout,
  chartSeries,
  chartTitle,
  coincidences,
  coincidenceText,
  pointText,
  restartMarkText,
  type ChartMode,
  type PlacedPoint,
} from "./chart";
import { LANES, type LaneView } from "./timeline";

const WIDTH = 560;
const HEIGHT = 170;
/** Room for the axis labels around the plot, and for the restart markers' labels above it. */
const MARGIN = { left: 48, right: 14, top: 18, bottom: 30 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** Each lane's marker: the shape drawn on its calls (and in its legend swatch). */
function Marker({ lane, x, y }: { lane: Lane; x: number; y: number }) {
  switch (lane) {
    case "dynamic":
      return <circle className="marker" cx={x} cy={y} r={3} />;
    case "restart":
      return <rect className="marker" x={x - 3.5} y={y - 3.5} width={7} height={7} />;
    case "baseline":
      return <path className="marker" d={`M ${String(x)} ${String(y - 4.5)} L ${String(x + 4.5)} ${String(y + 3.5)} L ${String(x - 4.5)} ${String(y + 3.5)} Z`} />;
  }
}

function Point({ point }: { point: PlacedPoint }) {
  return (
    <g
      className={point.discarded ? "point discarded" : "point"}
      data-testid="chart-point"
      data-lane={point.lane}
      data-call={point.call}
      data-attempt={point.attempt}
      data-tokens={point.tokens}
      data-value={point.value}
      data-discarded={point.discarded ? "true" : undefined}
    >
      <title>{pointText(point)}</title>
      {/* A larger, invisible target, so the tooltip comes on a point rather than on its pixel. */}
      <circle className="hit" cx={point.x} cy={point.y} r={7} />
      <Marker lane={point.lane} x={point.x} y={point.y} />
    </g>
  );
}

export function TokenChart({ views }: { views: Partial<Record<Lane, LaneView>> }) {
  const id = useId();
  const [mode, setMode] = useState<ChartMode>("per_call");
  const series = chartSeries(views);
  const layout = chartLayout(series, mode, PLOT_WIDTH, PLOT_HEIGHT);
  const drawn = LANES.filter((lane) => layout.lines[lane] !== undefined);
  if (drawn.length === 0) {
    return (
      <figure className="token-chart" data-testid="token-chart">
        <figcaption className="notice">Prompt tokens per model call: no model calls yet</figcaption>
      </figure>
    );
  }
  const coincide = coincidences(series, mode);
  return (
    <figure className="token-chart" data-testid="token-chart" data-mode={mode}>
      <div className="chart-head">
        <span className="chart-title">{chartTitle(mode)}</span>
        <div className="chart-mode" role="radiogroup" aria-label="Prompt tokens shown">
          {(
            [
              ["per_call", "per call", "chart-per-call"],
              ["cumulative", "cumulative", "chart-cumulative"],
            ] as const
          ).map(([value, label, testId]) => (
            <label key={value} className="check">
              <input
                type="radio"
                name={`${id}-mode`}
                value={value}
                data-testid={testId}
                checked={mode === value}
                onChange={() => {
                  setMode(value);
                }}
              />{" "}
              {label}
            </label>
          ))}
        </div>
      </div>
      <svg viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{chartTitle(mode)}</title>
        <desc id={`${id}-desc`}>{chartDescription(series, mode)}</desc>
        <g transform={`translate(${String(MARGIN.left)} ${String(MARGIN.top)})`}>
          <line className="grid" x1={0} y1={0} x2={PLOT_WIDTH} y2={0} />
          <line className="axis" x1={0} y1={PLOT_HEIGHT} x2={PLOT_WIDTH} y2={PLOT_HEIGHT} />
          <line className="axis" x1={0} y1={0} x2={0} y2={PLOT_HEIGHT} />
          {layout.restarts.map((mark) => (
            <g
              key={`${mark.lane}:${String(mark.afterCall)}:${String(mark.attempt)}`}
              className={`restart-mark ${mark.lane}`}
              data-testid="chart-restart"
              data-lane={mark.lane}
              data-after-call={mark.afterCall}
            >
              <title>{restartMarkText(mark)}</title>
              <line x1={mark.x} y1={-4} x2={mark.x} y2={PLOT_HEIGHT} />
              <rect className="hit" x={mark.x - 5} y={-12} width={10} height={PLOT_HEIGHT + 12} />
              <text className="restart-label" x={mark.x} y={-7}>
                ↻ restarted
              </text>
            </g>
          ))}
          {drawn.map((lane) => (
            <g key={lane} className={`series ${lane}`} data-lane={lane}>
              <polyline points={layout.lines[lane]} />
              {(layout.points[lane] ?? []).map((point) => (
                <Point key={point.call} point={point} />
              ))}
            </g>
          ))}
          <text className="axis-label end" x={-6} y={4} data-testid="chart-max">
            {layout.maxValue.toLocaleString("en-US")}
          </text>
          <text className="axis-label end" x={-6} y={PLOT_HEIGHT}>
            0
          </text>
          {layout.ticks.map((tick) => (
            <g key={tick.call}>
              <line className="tick" x1={tick.x} y1={PLOT_HEIGHT} x2={tick.x} y2={PLOT_HEIGHT + (tick.labelled ? 4 : 2)} />
              {tick.labelled && (
                <text className="axis-label middle" x={tick.x} y={PLOT_HEIGHT + 15} data-testid="chart-tick" data-call={tick.call}>
                  {tick.call}
                </text>
              )}
            </g>
          ))}
          <text className="axis-label middle" x={PLOT_WIDTH / 2} y={PLOT_HEIGHT + 28}>
            model call
          </text>
        </g>
      </svg>
      <figcaption>
        <ul className="legend">
          {drawn.map((lane) => (
            <li key={lane}>
              <svg className={`swatch ${lane}`} viewBox="0 0 24 10" width={24} height={10} aria-hidden="true">
                <polyline points="0,5 24,5" />
                <Marker lane={lane} x={12} y={5} />
              </svg>{" "}
              {lane}
            </li>
          ))}
        </ul>
        {coincide.length > 0 && (
          <p className="chart-coincide" data-testid="chart-coincide">
            {coincide.map(coincidenceText).join("; ")}: drawn side by side.
          </p>
        )}
      </figcaption>
    </figure>
  );
}
