// The event picked on the timeline: its kind and fields, and for an event that belongs to a model
// call, the request that adapter sent at that call (the system prompt, the messages after it, the
// tools as OpenAI JSON) and the model's answer, each with a Copy button; a close button in its
// heading (Escape too: the compare view listens for it). Everything is rendered as text: a prompt or
// a tool result is never parsed as HTML.
import { useState } from "react";
import { copyText, eventFields, prettyJson, requestParts } from "./detail";
import { describeEvent, type Discard } from "./timeline";
import type { CallDetail, PickedEvent } from "./run";
import "./runs.css";

export function EventDetail({
  picked,
  callIndex,
  discard = null,
  finished,
  detail,
  onClose,
}: {
  picked: PickedEvent | null;
  /** The restart that threw the picked call's attempt away, if one did. */
  discard?: Discard | null;
  /** The model call the picked event belongs to (null: it came before the first call). */
  callIndex: number | null;
  /** The comparison has finished: requests can be asked for. */
  finished: boolean;
  detail: CallDetail;
  /** Closes the detail (its close button); none: the detail has no close button. */
  onClose?: () => void;
}) {
  return (
    <section className="event-detail" data-testid="event-detail" aria-label="Event detail">
      <div className="event-detail-head">
        <h3>Event</h3>
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
            <span aria-hidden="true">×</span>
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
          <CallSection callIndex={callIndex} finished={finished} detail={detail} />
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
}: {
  callIndex: number | null;
  finished: boolean;
  detail: CallDetail;
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
      return <RequestView key={`${String(detail.call.call_index)}/${String(detail.call.attempt)}`} detail={detail} />;
  }
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
