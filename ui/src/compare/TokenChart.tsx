// The prompt tokens of every model call, one line per lane, as an SVG chart with a legend, the axis'
// ends labelled (0 and the most tokens; call 1 and the last call) and a text description for
// assistive technology. It draws the calls that have arrived, so it grows while a comparison runs.
import { useId } from "react";
import type { Lane } from "../platform";
import { chartGeometry, LANES, promptTokenSeries, type LaneView } from "./timeline";

const WIDTH = 560;
const HEIGHT = 150;
/** Room for the axis labels around the plot. */
const MARGIN = { left: 44, right: 14, top: 10, bottom: 22 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** "dynamic: 205, 221 prompt tokens; restart: 205" — the chart in words. */
export function chartDescription(series: Partial<Record<Lane, number[]>>): string {
  const lanes = LANES.flatMap((lane) => {
    const points = series[lane] ?? [];
    return points.length === 0 ? [] : [`${lane}: ${points.join(", ")}`];
  });
  return lanes.length === 0 ? "No model calls yet." : `Prompt tokens per model call. ${lanes.join("; ")}.`;
}

/** The points of an SVG `points` list, for the dots drawn on each call. */
function pointsOf(line: string): [number, number][] {
  return line.split(" ").map((point) => {
    const [x = 0, y = 0] = point.split(",").map(Number);
    return [x, y];
  });
}

export function TokenChart({ views }: { views: Partial<Record<Lane, LaneView>> }) {
  const id = useId();
  const series = promptTokenSeries(views);
  const { lines, maxTokens, maxCalls } = chartGeometry(series, PLOT_WIDTH, PLOT_HEIGHT);
  const drawn = LANES.filter((lane) => lines[lane] !== undefined);
  if (drawn.length === 0) {
    return (
      <figure className="token-chart" data-testid="token-chart">
        <figcaption className="notice">Prompt tokens per model call: no model calls yet</figcaption>
      </figure>
    );
  }
  return (
    <figure className="token-chart" data-testid="token-chart">
      <svg viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>Prompt tokens per model call</title>
        <desc id={`${id}-desc`}>{chartDescription(series)}</desc>
        <g transform={`translate(${String(MARGIN.left)} ${String(MARGIN.top)})`}>
          <line className="grid" x1={0} y1={0} x2={PLOT_WIDTH} y2={0} />
          <line className="axis" x1={0} y1={PLOT_HEIGHT} x2={PLOT_WIDTH} y2={PLOT_HEIGHT} />
          <line className="axis" x1={0} y1={0} x2={0} y2={PLOT_HEIGHT} />
          {drawn.map((lane) => (
            <g key={lane} className={`series ${lane}`} data-lane={lane}>
              <polyline points={lines[lane]} />
              {pointsOf(lines[lane] ?? "").map(([x, y], call) => (
                <circle key={call} cx={x} cy={y} r={2.5} />
              ))}
            </g>
          ))}
          <text className="axis-label end" x={-6} y={4} data-testid="chart-max">
            {maxTokens}
          </text>
          <text className="axis-label end" x={-6} y={PLOT_HEIGHT}>
            0
          </text>
          {maxCalls > 1 && (
            <text className="axis-label" x={0} y={PLOT_HEIGHT + 16}>
              call 1
            </text>
          )}
          <text className={maxCalls > 1 ? "axis-label end" : "axis-label middle"} x={maxCalls > 1 ? PLOT_WIDTH : PLOT_WIDTH / 2} y={PLOT_HEIGHT + 16}>
            call {maxCalls}
          </text>
        </g>
      </svg>
      <figcaption>
        <ul className="legend">
          {drawn.map((lane) => (
            <li key={lane}>
              <span className={`swatch ${lane}`} aria-hidden="true" /> {lane}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
