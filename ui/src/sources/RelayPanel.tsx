// The Relay section of the Sources tab: the app's own plugin relay (spec 9), which a template's
// `relay` source takes its tools from once a run is attached to one of its sessions (the Compare
// page's session picker). Start relay and Stop relay; while it runs, where it listens, how a plugin
// connects (commands to copy), its sessions
// (code, plugin, tools, open streams, expired) and a live log of the last entries, newest first.
// Its state lives in RelayStore (relay.ts).
import { memo, useEffect, useState, useSyncExternalStore } from "react";
import type { RelaySessionView } from "../platform";
import { FailureAlert } from "../shared/ActionOutcome";
import { copyText } from "../runs/detail";
import { connectSnippet, type RelayLogLine, type RelayStore } from "./relay";

/** When a log entry arrived, as the clock read it. */
function timeOf(received: number): string {
  return new Date(received).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** How a plugin connects to the relay, as commands to copy (open while no session is there yet). */
function ConnectPlugin({ base }: { base: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const snippet = connectSnippet(base);
  return (
    <details className="relay-connect" data-testid="relay-connect">
      <summary>Connect a plugin</summary>
      <pre data-testid="relay-snippet">{snippet}</pre>
      <button
        type="button"
        data-testid="relay-snippet-copy"
        onClick={() => {
          void copyText(snippet).then(setCopied);
        }}
      >
        Copy
      </button>{" "}
      {copied !== null && (
        <span className="sources-status" role="status">
          {copied}
        </span>
      )}
    </details>
  );
}

export function RelayPanel({ store }: { store: RelayStore }) {
  const state = useSyncExternalStore(store.subscribe, store.getState);

  useEffect(() => {
    void store.open();
  }, [store]);

  const running = state.listening !== null;
  return (
    <section className="relay-panel" data-testid="relay-panel" aria-labelledby="relay-title">
      <h3 id="relay-title">Relay</h3>
      <div className="sources-actions">
        {running ? (
          <button
            type="button"
            data-testid="relay-stop"
            disabled={state.busy !== null}
            title="Stop the relay: its streams close and its sessions are forgotten"
            onClick={() => void store.stop()}
          >
            Stop relay
          </button>
        ) : (
          <button
            type="button"
            data-testid="relay-start"
            disabled={state.busy !== null}
            title="Start the app's plugin relay on 127.0.0.1, for plugins to open sessions and register their tools"
            onClick={() => void store.start()}
          >
            Start relay
          </button>
        )}
        <span className="sources-status" role="status" data-testid="relay-listening">
          {state.busy === "start"
            ? "Starting…"
            : state.busy === "stop"
              ? "Stopping…"
              : running
                ? `Listening on ${state.listening ?? ""}`
                : "Not running: relay sources use their snapshots."}
        </span>
      </div>
      {state.failure !== null && (
        <FailureAlert
          failure={state.failure}
          testId="relay-failure"
          onDismiss={() => {
            store.dismissFailure();
          }}
        />
      )}
      {state.listening !== null && <ConnectPlugin base={state.listening} />}
      {running &&
        (state.sessions.length === 0 ? (
          <p className="sources-status">No session yet: a plugin opens one to register its tools.</p>
        ) : (
          <ul className="relay-sessions" aria-label="Relay sessions">
            {state.sessions.map((session) => (
              <RelaySession key={session.code} session={session} />
            ))}
          </ul>
        ))}
      {(running || state.log.length > 0) && (
        <div className="relay-log-box">
          <h4>Log</h4>
          {state.log.length === 0 ? (
            <p className="sources-status">No event yet.</p>
          ) : (
            <ol className="relay-log" data-testid="relay-log" aria-label="Relay log, newest first">
              {state.log.map((line) => (
                <RelayLogItem key={line.seq} line={line} />
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}

/** A session's line: drawn again only when what it shows changed (the sessions are read often). */
const RelaySession = memo(
  RelaySessionLine,
  (before, after) => sessionLine(before.session) === sessionLine(after.session),
);

function sessionLine(session: RelaySessionView): string {
  return JSON.stringify([
    session.plugin_type,
    session.plugin_version,
    session.tools.map((tool) => tool.name),
    session.streams,
    session.expired,
  ]);
}

function RelaySessionLine({ session }: { session: RelaySessionView }) {
  const plugin =
    session.plugin_type === null ? "no plugin yet" : `${session.plugin_type} ${session.plugin_version ?? ""}`.trim();
  const names = session.tools.map((tool) => tool.name).join(", ");
  const count = `${String(session.tools.length)} tool${session.tools.length === 1 ? "" : "s"}`;
  const streams = `${String(session.streams)} stream${session.streams === 1 ? "" : "s"} open`;
  return (
    <li
      className={session.expired ? "relay-session expired" : "relay-session"}
      data-testid="relay-session"
      data-code={session.code}
    >
      <code className="relay-code">{session.code}</code>
      <span>{plugin}</span>
      <span className="relay-meta" title={names}>
        {session.tools.length === 0 ? count : `${count}: ${names}`}
      </span>
      <span className="relay-meta">{streams}</span>
      {session.expired && <span className="relay-expired">expired</span>}
    </li>
  );
}

/** A log line never changes once received. */
const RelayLogItem = memo(LogLine);

function LogLine({ line }: { line: RelayLogLine }) {
  return (
    <li className="relay-log-entry" data-testid="relay-log-entry" data-code={line.code}>
      <time className="relay-meta" dateTime={new Date(line.received).toISOString()}>
        {timeOf(line.received)}
      </time>
      <code className="relay-code">{line.code}</code>
      <span className="relay-event">{line.event}</span>
      <span className="relay-summary" title={line.summary}>
        {line.summary}
      </span>
    </li>
  );
}
