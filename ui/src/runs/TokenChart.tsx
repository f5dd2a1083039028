// The prompt tokens of every model call, one line per lane, as an SVG chart: per call or the lane's
// tokens so far (a toggle), every call on the x axis (thinned to a round step when they would
// crowd), the figures of the call under the pointer beside it (lane, call, attempt, tokens; also
// each point's SVG title), a marker where a lane restarted (labelled where labels do not collide),
// discarded calls drawn faint, each lane with its own dash and marker and drawn a little to the side
// so equal values stay apart, both axes titled, a legend that says where lanes coincide, and the chart in words for
// assistive technology. It draws the calls that have arrived, so it grows while a comparison runs.
// The geometry and the words are chart.ts's.
//
// A finished comparison that was priced (every drawn lane, each of its calls) can be drawn as money
// instead (a second toggle: tokens or cost), its axis, tooltips, title and words written as the
// counters write money. Tokens are the default; the toggle is not there while the comparison runs
// (no report yet) or when it was not priced.
//
// data-testids: token-chart (the figure; data-mode, data-measure), chart-per-call and
// chart-cumulative (the mode's radio buttons), chart-tokens and chart-cost (the measure's radio
// buttons, a priced comparison's only), chart-max (the y axis' top), chart-tick (data-call; the
// labelled calls), chart-point (data-lane, data-call, data-attempt, data-tokens, data-cost (priced
// only), data-value, data-discarded; its <title> is the tooltip), chart-restart (data-lane,
// data-after-call; its <title> says why), chart-coincide (the legend's line where lanes coincide).
import { useId, useState } from "react";
import type { ComparisonReport, Lane } from "../platform";
import {
  axisTitle,
  chartDescription,
  chartLayout,
  chartSeries,
  chartTitle,
  chartTop,
  coincidences,
  coincidenceText,
  labelledRestarts,
  pointText,
  restartMarkText,
  valueText,
  type ChartMeasure,
  type ChartMode,
  type PlacedPoint,
} from "./chart";
import { laneCosts, lanesIn, type LaneView } from "./timeline";
import { laneName } from "../shared/words";
import "./runs.css";

const WIDTH = 640;
const HEIGHT = 250;
/** Room for the axis labels and titles around the plot, and for the restart markers' labels above it. */
const MARGIN = { left: 64, right: 14, top: 20, bottom: 34 };
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;
/** About the width of one of the axis labels' characters (px, at their 11px), and the room before the axis. */
const LABEL_CHAR = 6.5;
const LABEL_PAD = 12;

/**
 * The room left of the plot for the y axis' top `label`: MARGIN.left, or more for a longer label
 * ("$0.000394", "0.000394 EUR"), so money is never cut off at the figure's edge.
 */
function leftMargin(label: string): number {
  // The axis title stands rotated left of the labels.
  return Math.max(MARGIN.left, Math.ceil(LABEL_PAD + label.length * LABEL_CHAR) + 16);
}

/**
 * A lane's class, which gives it its colour and dash: an adapter's or the baseline's own name; a
 * host lane's (its name has a `:`) `host` and one of three looks, by its place among the hosts
 * `lanes` has, so that two hosts are told apart.
 */
function laneClass(lane: Lane, lanes: readonly Lane[]): string {
  if (!lane.startsWith("host:")) return lane;
  const hosts = lanes.filter((other) => other.startsWith("host:"));
  return `host host-${String(hosts.indexOf(lane) % 3)}`;
}

/** Each lane's marker: the shape drawn on its calls (and in its legend swatch). */
function Marker({ lane, x, y }: { lane: Lane; x: number; y: number }) {
  switch (lane) {
    case "dynamic":
      return <circle className="marker" cx={x} cy={y} r={3} />;
    case "restart":
      return <rect className="marker" x={x - 3.5} y={y - 3.5} width={7} height={7} />;
    case "allowed_tools":
      return (
        <path
          className="marker"
          d={`M ${String(x)} ${String(y - 4.5)} L ${String(x + 4.5)} ${String(y)} L ${String(x)} ${String(y + 4.5)} L ${String(x - 4.5)} ${String(y)} Z`}
        />
      );
    case "deferred":
      return (
        <path
          className="marker"
          d={`M ${String(x - 4.5)} ${String(y - 3.5)} L ${String(x + 4.5)} ${String(y - 3.5)} L ${String(x)} ${String(y + 4.5)} Z`}
        />
      );
    case "baseline":
      return (
        <path
          className="marker"
          d={`M ${String(x)} ${String(y - 4.5)} L ${String(x + 4.5)} ${String(y + 3.5)} L ${String(x - 4.5)} ${String(y + 3.5)} Z`}
        />
      );
    case "tool_addition":
      // A plus: the tools a system message adds.
      return (
        <path
          className="marker"
          d={`M ${String(x - 4.5)} ${String(y)} L ${String(x + 4.5)} ${String(y)} M ${String(x)} ${String(y - 4.5)} L ${String(x)} ${String(y + 4.5)}`}
        />
      );
    default:
      // A host lane: a cross.
      return (
        <path
          className="marker"
          d={`M ${String(x - 4)} ${String(y - 4)} L ${String(x + 4)} ${String(y + 4)} M ${String(x + 4)} ${String(y - 4)} L ${String(x - 4)} ${String(y + 4)}`}
        />
      );
  }
}

function Point({
  point,
  measure,
  currency,
  onHover,
}: {
  point: PlacedPoint;
  measure: ChartMeasure;
  currency: string | null | undefined;
  /** The pointer came onto the point (it, and its text) or left it (null). */
  onHover: (hovered: Hovered | null) => void;
}) {
  const text = pointText(point, measure, currency);
  return (
    <g
      onPointerEnter={() => {
        onHover({ text, x: point.x, y: point.y });
      }}
      onPointerLeave={() => {
        onHover(null);
      }}
      className={point.discarded ? "point discarded" : "point"}
      data-testid="chart-point"
      data-lane={point.lane}
      data-call={point.call}
      data-attempt={point.attempt}
      data-tokens={point.tokens}
      data-cost={point.cost ?? undefined}
      data-value={point.value}
      data-discarded={point.discarded ? "true" : undefined}
    >
      <title>{text}</title>
      {/* A larger, invisible target, so the tooltip comes on a point rather than on its pixel. */}
      <circle className="hit" cx={point.x} cy={point.y} r={7} />
      <Marker lane={point.lane} x={point.x} y={point.y} />
    </g>
  );
}

/** Which side of a point its tooltip hangs from, by where the point is across the figure (0 to 1). */
function tipSide(across: number): "start" | "middle" | "end" {
  if (across < 0.3) return "start";
  return across > 0.7 ? "end" : "middle";
}

/** The point the pointer is on: its words and where it is in the plot. */
interface Hovered {
  text: string;
  x: number;
  y: number;
}

interface ChoicesProps<T extends string> {
  name: string;
  /** The group's name for assistive technology. */
  label: string;
  /** Each choice: its value, its label and its data-testid. */
  options: readonly (readonly [T, string, string])[];
  value: T;
  onChange: (value: T) => void;
}

/** One of the chart's toggles, as radio buttons in a box of their own, under a visible name. */
function Choices<T extends string>({ name, label, options, value, onChange }: ChoicesProps<T>) {
  return (
    <div className="chart-mode" role="radiogroup" aria-label={label}>
      <span className="chart-mode-name" aria-hidden="true">
        {label}
      </span>
      {options.map(([option, text, testId]) => (
        <label key={option} className="check">
          <input
            type="radio"
            name={name}
            value={option}
            data-testid={testId}
            checked={value === option}
            onChange={() => {
              onChange(option);
            }}
          />{" "}
          {text}
        </label>
      ))}
    </div>
  );
}

/** `report`: the finished comparison's, whose costs the chart can draw; null while it runs. */
export function TokenChart({
  views,
  report,
}: {
  views: Partial<Record<Lane, LaneView>>;
  report: ComparisonReport | null;
}) {
  const id = useId();
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const [mode, setMode] = useState<ChartMode>("per_call");
  const [chosen, setMeasure] = useState<ChartMeasure>("tokens");
  const series = chartSeries(views, laneCosts(report));
  const priced = (series.currency ?? null) !== null;
  // The cost chosen for a priced comparison gives way to tokens while the next one runs (no report
  // yet) or when it was not priced, and comes back once a priced one has finished.
  const measure = priced ? chosen : "tokens";
  const top = valueText(chartTop(series, mode, measure), measure, series.currency);
  // (the middle label is worked out below, once the chart has lanes)
  const left = leftMargin(top);
  const plotWidth = WIDTH - left - MARGIN.right;
  const layout = chartLayout(series, mode, plotWidth, PLOT_HEIGHT, measure);
  const drawn = lanesIn(layout.lines);
  if (drawn.length === 0) {
    return (
      <figure className="token-chart" data-testid="token-chart">
        <figcaption className="notice">Prompt tokens per model call: no model calls yet</figcaption>
      </figure>
    );
  }
  const coincide = coincidences(series, mode, measure);
  const labelled = labelledRestarts(layout.restarts.map((mark) => mark.x));
  const topValue = chartTop(series, mode, measure);
  // Halfway up, as the axis writes it (tokens whole).
  const middle = measure === "cost" ? topValue / 2 : Math.round(topValue / 2);
  return (
    <figure className="token-chart" data-testid="token-chart" data-mode={mode} data-measure={measure}>
      <div className="chart-head">
        <span className="chart-title">{chartTitle(mode, measure)}</span>
        <div className="chart-choices">
          {priced && (
            <Choices
              name={`${id}-measure`}
              label="Draw"
              options={[
                ["tokens", "tokens", "chart-tokens"],
                ["cost", "cost", "chart-cost"],
              ]}
              value={measure}
              onChange={setMeasure}
            />
          )}
          <Choices
            name={`${id}-mode`}
            label="Calls"
            options={[
              ["per_call", "per call", "chart-per-call"],
              ["cumulative", "cumulative", "chart-cumulative"],
            ]}
            value={mode}
            onChange={setMode}
          />
        </div>
      </div>
      <div className="chart-plot">
        <svg viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
          <title id={`${id}-title`}>{chartTitle(mode, measure)}</title>
          <desc id={`${id}-desc`}>{chartDescription(series, mode, measure)}</desc>
          <g transform={`translate(${String(left)} ${String(MARGIN.top)})`}>
            <line className="grid" x1={0} y1={0} x2={plotWidth} y2={0} />
            <line className="grid" x1={0} y1={PLOT_HEIGHT / 2} x2={plotWidth} y2={PLOT_HEIGHT / 2} />
            <line className="axis" x1={0} y1={PLOT_HEIGHT} x2={plotWidth} y2={PLOT_HEIGHT} />
            <line className="axis" x1={0} y1={0} x2={0} y2={PLOT_HEIGHT} />
            {layout.restarts.map((mark, index) => (
              <g
                key={`${mark.lane}:${String(mark.afterCall)}:${String(mark.attempt)}`}
                className={`restart-mark ${laneClass(mark.lane, drawn)}`}
                data-testid="chart-restart"
                data-lane={mark.lane}
                data-after-call={mark.afterCall}
              >
                <title>{restartMarkText(mark)}</title>
                <line x1={mark.x} y1={-4} x2={mark.x} y2={PLOT_HEIGHT} />
                <rect className="hit" x={mark.x - 5} y={-12} width={10} height={PLOT_HEIGHT + 12} />
                {labelled[index] === true && (
                  <text className="restart-label" x={mark.x} y={-7}>
                    ↻ restarted
                  </text>
                )}
              </g>
            ))}
            {drawn.map((lane) => (
              <g key={lane} className={`series ${laneClass(lane, drawn)}`} data-lane={lane}>
                <polyline points={layout.lines[lane]} />
                {(layout.points[lane] ?? []).map((point) => (
                  <Point
                    key={point.call}
                    point={point}
                    measure={measure}
                    currency={series.currency}
                    onHover={setHovered}
                  />
                ))}
              </g>
            ))}
            <text className="axis-label end" x={-6} y={4} data-testid="chart-max">
              {top}
            </text>
            <text className="axis-label end" x={-6} y={PLOT_HEIGHT / 2 + 4}>
              {valueText(middle, measure, series.currency)}
            </text>
            <text className="axis-label end" x={-6} y={PLOT_HEIGHT}>
              {valueText(0, measure, series.currency)}
            </text>
            <text
              className="axis-label middle axis-title"
              transform={`translate(${String(12 - left)} ${String(PLOT_HEIGHT / 2)}) rotate(-90)`}
            >
              {axisTitle(measure, mode)}
            </text>
            {layout.ticks.map((tick) => (
              <g key={tick.call}>
                <line
                  className="tick"
                  x1={tick.x}
                  y1={PLOT_HEIGHT}
                  x2={tick.x}
                  y2={PLOT_HEIGHT + (tick.labelled ? 4 : 2)}
                />
                {tick.labelled && (
                  <text
                    className="axis-label middle"
                    x={tick.x}
                    y={PLOT_HEIGHT + 15}
                    data-testid="chart-tick"
                    data-call={tick.call}
                  >
                    {tick.call}
                  </text>
                )}
              </g>
            ))}
            <text className="axis-label middle" x={plotWidth / 2} y={PLOT_HEIGHT + 28}>
              model call
            </text>
          </g>
        </svg>
        {hovered !== null && (
          // Where the point is, in the drawn figure's own scale (the plot takes the figure's width).
          <span
            // Anchored on the side that keeps it inside the figure near either edge.
            className={`chart-tip ${tipSide((left + hovered.x) / WIDTH)}`}
            data-testid="chart-tooltip"
            style={{
              left: `${String(((left + hovered.x) * 100) / WIDTH)}%`,
              top: `${String(((MARGIN.top + hovered.y) * 100) / HEIGHT)}%`,
            }}
          >
            {hovered.text}
          </span>
        )}
      </div>
      <figcaption>
        <ul className="legend">
          {drawn.map((lane) => (
            <li key={lane}>
              <svg
                className={`swatch ${laneClass(lane, drawn)}`}
                viewBox="0 0 24 10"
                width={24}
                height={10}
                aria-hidden="true"
              >
                <polyline points="0,5 24,5" />
                <Marker lane={lane} x={12} y={5} />
              </svg>{" "}
              {laneName(lane)}
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
