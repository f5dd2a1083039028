// The event picked on the timeline: its kind and fields, and for an event that belongs to a model
// call, what changed against another call (the lane's previous one, or another lane's at the same
// number: tools added and removed, the system prompt's changed lines), then the request that
// adapter sent at that call (the system prompt, the messages after it, the tools as OpenAI JSON)
// and the model's answer, each with a Copy button; a close button in its heading (Escape too: the
// compare view listens for it). Everything is rendered as text: a prompt or a tool result is never
// parsed as HTML.
import { X } from "lucide-react";
import { useState, type ReactNode } from "react";
import type { Lane } from "../platform";
import { laneName } from "../shared/words";
import { copyText, eventFields, prettyJson, requestParts } from "./detail";
import { diffSummary, requestDiff } from "./requestDiff";
import { describeEvent, type Discard } from "./timeline";
import type { AgainstCall, CallDetail, DiffTarget, PickedEvent } from "./run";

/** What the diff may be taken against: the lanes of the comparison, the one chosen, and how to choose. */
export interface DiffChoice {
  lanes: readonly Lane[];
  target: DiffTarget;
  onChange: (target: DiffTarget) => void;
}
import "./runs.css";

export function EventDetail({
  picked,
  callIndex,
  discard = null,
  finished,
  detail,
  diff,
  onClose,
  actions,
}: {
  picked: PickedEvent | null;
  /** The restart that threw the picked call's attempt away, if one did. */
  discard?: Discard | null;
  /** The model call the picked event belongs to (null: it came before the first call). */
  callIndex: number | null;
  /** The comparison has finished: requests can be asked for. */
  finished: boolean;
  detail: CallDetail;
  /** What the request may be diffed against; none: no diff is offered. */
  diff?: DiffChoice;
  /** Closes the detail (its close button); none: the detail has no close button. */
  onClose?: () => void;
  /** What can be done from the picked event (the Compare page's "Fork from here"). */
  actions?: ReactNode;
}) {
  return (
    <section className="event-detail" data-testid="event-detail" aria-label="Event detail">
      <div className="event-detail-head">
        <h3>Event</h3>
        {actions}
        {onClose !== undefined && (
          <button
            type="button"
            className="icon-button"
            data-testid="close-event-detail"
            aria-label="Close the event detail"
            aria-keyshortcuts="Escape"
            title="Close the event detail (Esc)"
            onClick={onClose}
          >
            <X aria-hidden="true" />
          </button>
        )}
      </div>
      {picked === null ? (
        <p className="notice">Pick an event on the timeline to see its fields and the request its model call sent.</p>
      ) : (
        <>
          <p className="detail-heading">
            <strong>{describeEvent(picked.event)}</strong>
            {discard !== null && (
              <span className="discarded-badge" data-testid="detail-discarded">
                discarded
              </span>
            )}
            <span className="detail-place">
              {picked.lane} · #{picked.event.seq} · attempt {picked.event.attempt}
            </span>
          </p>
          <EventFields picked={picked} discard={discard} />
          <CallSection callIndex={callIndex} finished={finished} detail={detail} diff={diff} lane={picked.lane} />
        </>
      )}
    </section>
  );
}

function EventFields({ picked, discard }: { picked: PickedEvent; discard: Discard | null }) {
  return (
    <dl className="event-fields" data-testid="event-fields" data-type={picked.event.type}>
      {eventFields(picked.event, discard).map((field) => (
        <div key={field.label} className={field.json === true ? "field json" : "field"}>
          <dt>{field.label}</dt>
          <dd>{field.json === true ? <pre>{field.text}</pre> : field.text}</dd>
        </div>
      ))}
    </dl>
  );
}

function CallSection({
  callIndex,
  finished,
  detail,
  diff,
  lane,
}: {
  callIndex: number | null;
  finished: boolean;
  detail: CallDetail;
  diff: DiffChoice | undefined;
  lane: Lane;
}) {
  if (callIndex === null)
    return <p className="notice">This event came before the first model call: no request belongs to it.</p>;
  switch (detail.kind) {
    case "none":
      return (
        <p className="notice">
          {finished
            ? `Pick the event again to load model call ${String(callIndex)}'s request.`
            : `The request of model call ${String(callIndex)} can be shown once the comparison has finished.`}
        </p>
      );
    case "loading":
      return <p className="notice">Loading the request of model call {callIndex}…</p>;
    case "failed":
      return (
        <div className="error" role="alert" data-testid="detail-failure">
          <strong>{detail.failure.title}</strong> {detail.failure.detail}
        </div>
      );
    case "ready":
      return (
        <>
          {diff !== undefined && <DiffSection choice={diff} lane={lane} detail={detail} />}
          <RequestView key={`${String(detail.call.call_index)}/${String(detail.call.attempt)}`} detail={detail} />
        </>
      );
  }
}

/** What changed against the chosen call: a line per change of tools and messages, the system prompt's changed lines. */
function DiffSection({
  choice,
  lane,
  detail,
}: {
  choice: DiffChoice;
  lane: Lane;
  detail: Extract<CallDetail, { kind: "ready" }>;
}) {
  const value = choice.target.kind === "previous" ? "previous" : `lane:${choice.target.lane}`;
  const { against } = detail;
  return (
    <section className="request-diff" data-testid="request-diff" aria-label="Changes against another call">
      <h4>
        <label>
          Changes against{" "}
          <select
            data-testid="diff-target"
            value={value}
            onChange={(event) => {
              const picked = event.target.value;
              choice.onChange(
                picked === "previous" ? { kind: "previous" } : { kind: "lane", lane: picked.slice("lane:".length) },
              );
            }}
          >
            <option value="previous">this lane&apos;s previous call</option>
            {choice.lanes
              .filter((other) => other !== lane)
              .map((other) => (
                <option key={other} value={`lane:${other}`}>
                  {`${laneName(other)}'s call ${String(detail.call.call_index)}`}
                </option>
              ))}
          </select>
        </label>
      </h4>
      {against === null ? (
        <p className="notice" data-testid="diff-none">
          {choice.target.kind === "previous"
            ? "This is the lane's first call: there is nothing before it."
            : `${laneName(choice.target.lane)} made no call ${String(detail.call.call_index)}.`}
        </p>
      ) : (
        <DiffLines against={against} detail={detail} />
      )}
    </section>
  );
}

function DiffLines({ against, detail }: { against: AgainstCall; detail: Extract<CallDetail, { kind: "ready" }> }) {
  const diff = requestDiff(requestParts(against.call), requestParts(detail.call));
  return (
    <>
      <p className="diff-against">
        From {laneName(against.lane)}&apos;s call {against.callIndex} (attempt {against.call.attempt}) to this one:
      </p>
      <ul className="diff-summary" data-testid="diff-summary">
        {diffSummary(diff).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {diff.system.length > 0 && (
        <pre className="diff-lines" data-testid="diff-system" aria-label="The system prompt's changed lines">
          {diff.system.map((line, i) =>
            line.kind === "folded" ? (
              <span
                key={i}
                className="diff-folded"
              >{`  … ${String(line.count)} unchanged line${line.count === 1 ? "" : "s"}\n`}</span>
            ) : (
              <span key={i} className={`diff-${line.kind}`}>
                {`${line.kind === "added" ? "+" : line.kind === "removed" ? "−" : " "} ${line.text}\n`}
              </span>
            ),
          )}
        </pre>
      )}
    </>
  );
}

function RequestView({ detail }: { detail: Extract<CallDetail, { kind: "ready" }> }) {
  const { call } = detail;
  const parts = requestParts(call);
  return (
    <section className="request" aria-label="Request and answer">
      <h4>
        Model call {call.call_index} · attempt {call.attempt}
      </h4>
      <RequestPart
        id="system"
        title="System prompt"
        what="system prompt"
        text={parts.system ?? ""}
        empty="This request has no system message."
      />
      <RequestPart id="messages" title="Messages after it" what="messages" text={prettyJson(parts.messages)} />
      <RequestPart
        id="tools"
        title={`Tools (${String(parts.tools.length)}, OpenAI JSON)`}
        what="tools"
        text={prettyJson(parts.tools)}
      />
      <RequestPart id="response" title="Response" what="response" text={prettyJson(parts.response)} />
    </section>
  );
}

/** One part of the request as text in a <pre>, with its Copy button; `empty` is said when there is no text. */
function RequestPart({
  id,
  title,
  what,
  text,
  empty,
}: {
  id: string;
  title: string;
  /** What the Copy button copies, for its accessible name. */
  what: string;
  text: string;
  empty?: string;
}) {
  return (
    <div className="request-part">
      <div className="request-part-head">
        <h5>{title}</h5>
        <CopyButton testId={`copy-${id}`} what={what} text={text} />
      </div>
      {text === "" && empty !== undefined && <p className="notice">{empty}</p>}
      <pre data-testid={`detail-${id}`}>{text}</pre>
    </div>
  );
}

function CopyButton({ testId, what, text }: { testId: string; what: string; text: string }) {
  const [said, setSaid] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        data-testid={testId}
        aria-label={`Copy the ${what}`}
        onClick={() => {
          void copyText(text).then(setSaid);
        }}
      >
        Copy
      </button>
      <span className="copy-status" role="status">
        {said}
      </span>
    </>
  );
}
