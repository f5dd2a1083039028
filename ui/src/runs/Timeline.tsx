// A comparison's timeline, on the Compare page and in the history: the lanes the comparison runs
// (one per adapter ticked, side by side in the order they ran, then a scripted one's all-FULL
// baseline, a lane that can be hidden), aligned by the work each call did (alignByWork: a row holds
// the calls that made the same tool calls, so a restart's redone calls get rows of their own; a row
// where two lanes made different calls says so). Each lane cell is a model-call block with the tool
// calls and markers that followed the call; a new attempt gets a separator; a call a restart threw
// away is marked discarded; the run's end closes the lane. Every event is a button that picks it;
// the picked event and the events of each first divergence (every run after the first against the
// first) are highlighted, and a fork's lane marks the event it left its parent at. It draws what has arrived, so it follows a running comparison, and the
// text a live model is writing shows at the end of its lane until its answer is whole. The run
// history draws kept runs with it too, each lane named after its run.
//
// data-testids: timeline-lanes (the lanes' grid), lane (data-lane; `display: contents`, so it has no
// box: measure its lane-head child, the lane's first cell, for a lane's width), timeline-event and
// run-end (data-lane, data-seq, data-type; aria-pressed on the picked one; data-discarded on a
// discarded call's), call-block (data-lane, data-call, data-attempt, data-work, data-discarded),
// discarded-badge (in a discarded call's button), fork-badge (data-fork-point on the event a fork
// left its parent at), work-differs (in a block whose row holds
// different calls: what the other lanes did), no-match (an ended lane's cell in a row it has no call for),
// attempt-separator, baseline-toggle, lane-writing.
import { useState, type CSSProperties, type ReactNode } from "react";
import type { ComparisonReport, Lane, RunEvent } from "../platform";
import { realHostLane } from "../platform/lanes";
import {
  alignByWork,
  describeEvent,
  discardText,
  divergencePlaces,
  lanesIn,
  workKey,
  workText,
  type CallBlock,
  type EventPlace,
  type LaneLabel,
  type LaneView,
  type TimelineRow,
} from "./timeline";
import { count, laneName } from "../shared/words";
import type { PickedEvent, RunState } from "./run";
import "./runs.css";

/** What each lane is, under its name. */
const LANE_NOTES: Partial<Record<Lane, string>> = {
  dynamic: "injects a read section's tools",
  restart: "restarts with the section expanded",
  allowed_tools: "every tool sent; reading widens the callable ones",
  deferred: "hidden tools deferred; reading loads them by reference",
  tool_addition: "hidden tools deferred; reading adds them by a system message",
  baseline: "every section FULL from the start",
};

/** What a host lane is, under its name (`host:claude-code`). */
const HOST_NOTE = "as the agent host shows new tools";

/** What a real host's lane is (`real:claude-code`), until its run says which version ran. */
const REAL_HOST_NOTE = "the real agent host, run against the template";

/** What `lane` is, under its name: a real host's lane names the version that ran once it is known. */
function laneNote(lane: Lane, report: ComparisonReport | null): string {
  const note = LANE_NOTES[lane];
  if (note !== undefined) return note;
  if (!lane.startsWith("real:")) return HOST_NOTE;
  const host = report?.runs.find(
    (run) => run.real_host != null && realHostLane(run.real_host.name) === lane,
  )?.real_host;
  return host?.version == null ? REAL_HOST_NOTE : `the real agent host, version ${host.version}`;
}

/** A lane with no events yet. */
const NO_VIEW: LaneView = { before: [], blocks: [], end: null };

/** How the events are marked and what a click does: shared by every cell of the timeline. */
interface Marks {
  picked: PickedEvent | null;
  /** `lane:seq` of the first divergences' events. */
  divergence: ReadonlySet<string>;
  /** `lane:seq` of the event a fork left its parent at (the fork's lane's event there). */
  forkPoint: string | null;
  onPick: (lane: Lane, event: RunEvent) => void;
}

const placeKey = (lane: Lane, seq: number) => `${lane}:${String(seq)}`;

export function Timeline({
  run,
  views,
  picked,
  onPick,
  labels,
  divergence,
  forkPoint,
}: {
  run: RunState;
  /** Each lane's events grouped into blocks (laneViews of the run's events); a lane without is empty. */
  views: Partial<Record<Lane, LaneView>>;
  picked: PickedEvent | null;
  onPick: (lane: Lane, event: RunEvent) => void;
  /** Kept runs' names for the lanes, in place of the comparison's lane names and notes. */
  labels?: Partial<Record<Lane, LaneLabel>>;
  /** The first divergences' events, when `run` has no comparison report to find them in. */
  divergence?: readonly EventPlace[];
  /** Where a fork's lane left its parent's (spec 15): its events before it are the parent's, replayed. */
  forkPoint?: EventPlace;
}) {
  const [showBaseline, setShowBaseline] = useState(true);
  // A named baseline lane is a kept run chosen as the baseline, not the all-FULL run: never hidden.
  const withBaseline = run.lanes.includes("baseline") && labels?.baseline === undefined;
  const lanes = run.lanes.filter((lane) => lane !== "baseline" || showBaseline);
  const viewOf = (lane: Lane) => views[lane] ?? NO_VIEW;
  const shown: Partial<Record<Lane, LaneView>> = Object.fromEntries(lanes.map((lane) => [lane, viewOf(lane)]));
  // Lined up in the order the runs ran: the first run's lane first, as the divergences are.
  const rows = alignByWork(shown, lanes);
  const withBefore = lanes.some((lane) => viewOf(lane).before.length > 0);
  const marks: Marks = {
    picked,
    divergence: new Set((divergence ?? divergencePlaces(run.report)).map((place) => placeKey(place.lane, place.seq))),
    forkPoint: forkPoint === undefined ? null : placeKey(forkPoint.lane, forkPoint.seq),
    onPick,
  };
  return (
    <section className="timeline-section" aria-label="Timeline">
      <div className="timeline-head">
        <h3>Timeline</h3>
        {withBaseline && (
          <label className="check">
            <input
              type="checkbox"
              data-testid="baseline-toggle"
              checked={showBaseline}
              onChange={(event) => {
                setShowBaseline(event.target.checked);
              }}
            />{" "}
            Show the all-FULL baseline
          </label>
        )}
      </div>
      {/* The lanes' cells share the grid's rows (see runs.css), so a row's blocks line up across lanes. */}
      <div
        className={`timeline lanes-${String(lanes.length)}`}
        style={{ "--lanes": String(lanes.length) } as CSSProperties}
        data-testid="timeline-lanes"
      >
        {lanes.map((lane, index) => (
          <LaneColumn
            key={lane}
            lane={lane}
            label={labels?.[lane] ?? { name: laneName(lane), note: laneNote(lane, run.report) }}
            column={index + 1}
            view={viewOf(lane)}
            rows={rows}
            withBefore={withBefore}
            pending={pendingText(run, lane)}
            writing={run.writing[lane] ?? ""}
            marks={marks}
          />
        ))}
      </div>
    </section>
  );
}

/** What a lane without its end says: still to come, under way, or stopped. */
function pendingText(run: RunState, lane: Lane): string {
  switch (run.status) {
    case "running":
      return run.started.includes(lane) ? "running…" : "waiting for its turn";
    case "cancelled":
      return "cancelled before it ended";
    case "failed":
      return "did not end: the comparison failed";
    case "finished":
      return "no end recorded";
  }
}

function LaneColumn({
  lane,
  label,
  column,
  view,
  rows,
  withBefore,
  pending,
  writing,
  marks,
}: {
  lane: Lane;
  label: LaneLabel;
  column: number;
  view: LaneView;
  rows: TimelineRow[];
  withBefore: boolean;
  pending: string;
  /** The text a live model is writing now (the answer of the next call). */
  writing: string;
  marks: Marks;
}) {
  const cell = (extra = "") => `timeline-cell col-${String(column)}${extra}`;
  return (
    <div className="lane" data-testid="lane" data-lane={lane} role="group" aria-label={`${label.name} lane`}>
      <div className={cell(" lane-head")} data-testid="lane-head">
        <h4>{label.name}</h4>
        <span className="lane-note">{label.note}</span>
      </div>
      {withBefore && (
        <div className={cell(" before")}>
          {view.before.length > 0 && (
            <>
              <span className="cell-label">before the first call</span>
              <EventList lane={lane} events={view.before} marks={marks} />
            </>
          )}
        </div>
      )}
      {rows.map((row) => {
        const block = row.blocks[lane];
        if (block === undefined) {
          return (
            <div key={row.key} className={cell(" empty")}>
              {view.end !== null && (
                <span className="no-match" data-testid="no-match">
                  no matching call
                </span>
              )}
            </div>
          );
        }
        return (
          <div key={row.key} className={cell(row.work === "different" ? " differs" : "")}>
            <Block lane={lane} block={block} row={row} marks={marks} />
          </div>
        );
      })}
      <div className={cell(" end")}>
        {view.end === null ? (
          <>
            {writing !== "" && (
              <p className="lane-writing" data-testid="lane-writing" aria-live="polite">
                {writing}
              </p>
            )}
            <p className="lane-pending">{pending}</p>
          </>
        ) : (
          <EventButton lane={lane} event={view.end} marks={marks} testId="run-end">
            <span className="run-end-status">{describeEvent(view.end)}</span>
            {view.end.final !== null && <span className="run-end-final">{view.end.final}</span>}
            {view.end.error !== undefined && <span className="run-end-error">{view.end.error}</span>}
          </EventButton>
        )}
      </div>
    </div>
  );
}

/** "restart called lookup(7)": what the other lanes' blocks in the row did, where it differs from `block`. */
function otherWorkText(lane: Lane, block: CallBlock, row: TimelineRow): string {
  const own = workKey(block);
  return lanesIn(row.blocks)
    .flatMap((other) => {
      const theirs = row.blocks[other];
      return other === lane || theirs === undefined || workKey(theirs) === own
        ? []
        : [`${laneName(other)} ${workText(theirs)}`];
    })
    .join("; ");
}

function Block({ lane, block, row, marks }: { lane: Lane; block: CallBlock; row: TimelineRow; marks: Marks }) {
  const { call, discarded } = block;
  return (
    <>
      {block.newAttempt && (
        <div
          className="attempt-separator"
          data-testid="attempt-separator"
          role="separator"
          aria-label={`attempt ${String(block.attempt)}`}
        >
          attempt {block.attempt}
        </div>
      )}
      <div
        className={discarded === null ? "call-block" : "call-block discarded"}
        data-testid="call-block"
        data-lane={lane}
        data-call={block.callIndex}
        data-attempt={block.attempt}
        data-work={row.work}
        data-discarded={discarded === null ? undefined : "true"}
      >
        <EventButton lane={lane} event={call} marks={marks} discarded={discarded !== null}>
          <span className="call-title">
            call {block.callIndex} · attempt {block.attempt}
            {discarded !== null && (
              <span
                className="discarded-badge"
                data-testid="discarded-badge"
                title={`Discarded: ${discardText(discarded, "model_call")}`}
              >
                discarded
              </span>
            )}
          </span>
          <span className="call-meta">
            {count(call.tools_offered.length, "tool")} · {count(call.prompt_tokens, "prompt token")}
          </span>
        </EventButton>
        {row.work === "different" && (
          <p className="work-differs" data-testid="work-differs">
            different work: {otherWorkText(lane, block, row)}
          </p>
        )}
        {block.after.length > 0 && <EventList lane={lane} events={block.after} marks={marks} discarded={discarded} />}
      </div>
    </>
  );
}

function EventList({
  lane,
  events,
  marks,
  discarded = null,
}: {
  lane: Lane;
  events: RunEvent[];
  marks: Marks;
  /** The restart that threw these events' attempt away: their tool calls are discarded. */
  discarded?: CallBlock["discarded"];
}) {
  return (
    <ul className="call-events">
      {events.map((event) => (
        <li key={event.seq}>
          <EventButton
            lane={lane}
            event={event}
            marks={marks}
            discarded={discarded !== null && event.type === "tool_call"}
          />
        </li>
      ))}
    </ul>
  );
}

/** One event as a button that picks it; `children` replace its one-line description. */
function EventButton({
  lane,
  event,
  marks,
  testId = "timeline-event",
  discarded = false,
  children,
}: {
  lane: Lane;
  event: RunEvent;
  marks: Marks;
  testId?: string;
  /** The event's attempt was thrown away by a restart (a model call or tool call). */
  discarded?: boolean;
  children?: ReactNode;
}) {
  const diverges = marks.divergence.has(placeKey(lane, event.seq));
  const forked = marks.forkPoint === placeKey(lane, event.seq);
  const picked = marks.picked?.lane === lane && marks.picked.event.seq === event.seq;
  const failed = event.type === "tool_call" && !event.success;
  const classes = [
    "timeline-event",
    `kind-${event.type}`,
    failed ? "failed" : "",
    discarded ? "discarded" : "",
    diverges ? "divergence" : "",
    forked ? "fork-point" : "",
  ];
  return (
    <button
      type="button"
      className={classes.filter((name) => name !== "").join(" ")}
      data-testid={testId}
      data-lane={lane}
      data-seq={event.seq}
      data-type={event.type}
      data-divergence={diverges ? "true" : undefined}
      data-discarded={discarded ? "true" : undefined}
      data-fork-point={forked ? "true" : undefined}
      aria-pressed={picked}
      onClick={() => {
        marks.onPick(lane, event);
      }}
    >
      {children ?? describeEvent(event)}
      {discarded && event.type === "tool_call" && <span className="discarded-badge">discarded</span>}
      {forked && <span className="fork-badge">forked here</span>}
      {diverges && <span className="divergence-badge">first divergence</span>}
    </button>
  );
}
