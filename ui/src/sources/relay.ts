// The app's own plugin relay (spec 9) as the Sources tab shows it, without React: where it listens,
// its sessions (read again after log entries arrive, one read at a time), and a live log of the last entries, newest
// first, fed by `watchRelay` once the relay is started (or found running when the panel opens);
// Start and Stop, and why the last one failed. React reads it through `subscribe`/`getState`.
import type { JsonValue, Outcome, Platform, RelayLogEntry, RelaySessionView, RelayStatus } from "../platform";
import { ExternalStore } from "../shared/ExternalStore";
import { briefFailureOf, type BriefFailure } from "../shared/failure";

/** How many log entries the panel keeps. */
export const RELAY_LOG_SIZE = 50;

/** How long a busy relay's sessions wait between two reads. */
const REREAD_PAUSE_MS = 100;

/** One entry of the live log, as received. */
export interface RelayLogLine {
  /** Counts the entries received, for React's keys. */
  seq: number;
  /** When it arrived (milliseconds since the Unix epoch). */
  received: number;
  code: string;
  event: string;
  /** The entry in one line: the tools added, removed and changed and the reason, or the tool asked for. */
  summary: string;
}

export interface RelayState {
  /** Where it listens (`http://127.0.0.1:7391`); null when stopped or not read yet. */
  listening: string | null;
  sessions: RelaySessionView[];
  /** The log's last entries, newest first. */
  log: RelayLogLine[];
  busy: "start" | "stop" | null;
  failure: BriefFailure | null;
}

/** A tool as an update names it: its name, or the tool itself. */
function toolName(tool: JsonValue): string {
  if (typeof tool === "string") return tool;
  if (typeof tool === "object" && tool !== null && !Array.isArray(tool) && typeof tool.name === "string")
    return tool.name;
  return JSON.stringify(tool);
}

/** The object `value` is, or an empty one. */
function objectOf(value: JsonValue | undefined): Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

/**
 * A log entry in one line: an update's tools as "+added -removed ~modified" and its reason after a
 * dash, a request's tool; any other event's data as JSON.
 */
export function relaySummary(entry: RelayLogEntry): string {
  const data = objectOf(entry.data);
  if (entry.event === "tool-request") return typeof data.tool === "string" ? data.tool : JSON.stringify(entry.data);
  if (entry.event === "tool-availability-update") {
    const updates = objectOf(data.updates);
    const names = (key: string, mark: string) => {
      const list = updates[key];
      return Array.isArray(list) ? list.map((tool) => `${mark}${toolName(tool)}`) : [];
    };
    const changes = [...names("added", "+"), ...names("removed", "-"), ...names("modified", "~")].join(" ");
    const reason = typeof data.reason === "string" && data.reason !== "" ? data.reason : null;
    return [changes === "" ? "no change" : changes, reason].filter((part) => part !== null).join(" — ");
  }
  return JSON.stringify(entry.data);
}

export class RelayStore extends ExternalStore<RelayState> {
  /** The log is being fed by a watch of the relay as it runs now. */
  private watching = false;
  private received = 0;
  /** Counts the status reads: an answer older than one taken already is dropped. */
  private sent = 0;
  private taken = 0;
  /**
   * The reads sent before a start or stop answered: the backend may have read the relay before
   * the start or stop changed it, so their answers, however late, never undo it.
   */
  private overruled = 0;
  /** The sessions are being read again for the log. */
  private rereading = false;

  constructor(private readonly platform: Platform) {
    super({ listening: null, sessions: [], log: [], busy: null, failure: null });
  }

  /** Reads the relay's status as the panel opens, and watches its log when it runs already. */
  async open(): Promise<void> {
    if (await this.refresh()) await this.watch();
  }

  /** Starts the relay on its usual port, then watches its log. */
  async start(): Promise<void> {
    if (await this.act("start", "The relay did not start", () => this.platform.startRelay(null))) await this.watch();
  }

  /** Stops the relay: its sessions go, and the log hears no more. */
  async stop(): Promise<void> {
    await this.act("stop", "The relay did not stop", () => this.platform.stopRelay());
  }

  dismissFailure(): void {
    this.update({ failure: null });
  }

  /** Starts or stops the relay; whether it was done. */
  private async act(
    busy: "start" | "stop",
    title: string,
    request: () => Promise<Outcome<RelayStatus>>,
  ): Promise<boolean> {
    this.update({ busy, failure: null });
    const answer = await this.answer(request, true);
    this.update({ busy: null });
    if (answer === null) return true;
    if (!answer.ok) this.update({ failure: briefFailureOf(title, answer.error) });
    return answer.ok;
  }

  /** Reads the status again; whether the relay runs. */
  private async refresh(): Promise<boolean> {
    const answer = await this.answer(() => this.platform.relayStatus());
    if (answer?.ok === false)
      this.update({ failure: briefFailureOf("The relay's sessions could not be read", answer.error) });
    return this.state.listening !== null;
  }

  /**
   * Sends a request answering the relay's status and takes the status it answers; null when a later
   * request's answer was taken already, or the read was sent before a start or stop (`act`)
   * answered (this one is dropped).
   */
  private async answer(
    request: () => Promise<Outcome<RelayStatus>>,
    act = false,
  ): Promise<Outcome<RelayStatus> | null> {
    const ticket = ++this.sent;
    const answer = await request();
    if (ticket < this.taken || ticket <= this.overruled) return null;
    this.taken = ticket;
    if (act) this.overruled = this.sent;
    if (answer.ok) {
      // A stopped relay's watch ended with it: a start watches again.
      if (answer.value.listening === null) this.watching = false;
      this.update({ listening: answer.value.listening, sessions: answer.value.sessions });
    }
    return answer;
  }

  private async watch(): Promise<void> {
    if (this.watching) return;
    this.watching = true;
    const answer = await this.platform.watchRelay((entry) => {
      this.log(entry);
    });
    if (!answer.ok) {
      this.watching = false;
      this.update({ failure: briefFailureOf("The relay's log could not be watched", answer.error) });
    }
  }

  private log(entry: RelayLogEntry): void {
    const line: RelayLogLine = {
      seq: ++this.received,
      received: Date.now(),
      code: entry.code,
      event: entry.event,
      summary: relaySummary(entry),
    };
    this.update({ log: [line, ...this.state.log].slice(0, RELAY_LOG_SIZE) });
    void this.reread();
  }

  /**
   * Reads the sessions again after log entries: once, then, if entries came meanwhile (or in the
   * pause after it), once more, so a busy relay costs one read at a time and leaves the page time
   * to draw its log.
   */
  private async reread(): Promise<void> {
    if (this.rereading) return;
    this.rereading = true;
    let read: number;
    do {
      read = this.received;
      await this.refresh();
      await new Promise((resolve) => setTimeout(resolve, REREAD_PAUSE_MS));
    } while (this.received !== read);
    this.rereading = false;
  }
}

/**
 * What connects a plugin to the relay listening at `base` (`http://127.0.0.1:7391`), as shell
 * commands to copy: open a session (its code and token come back), then register the plugin's
 * tools with them. The full plugin, answering tool requests, is examples/relay-plugin.
 */
export function connectSnippet(base: string): string {
  const api = `${base.replace(/\/+$/, "")}/api/sessions`;
  const json = "-H 'Content-Type: application/json'";
  const tool = {
    name: "open_table",
    description: "Open a table by its name.",
    inputSchema: { type: "object", properties: { name: { type: "string" } } },
  };
  return [
    "# 1. Open a session: the answer holds its code and token.",
    `curl -s -X POST ${api} ${json} -d '{}'`,
    "# 2. Register the plugin's tools with them (CODE and TOKEN from step 1).",
    `curl -s -X POST ${api}/CODE/register-tools -H 'Authorization: Bearer TOKEN' ${json} \\`,
    `  -d '${JSON.stringify({ pluginType: "my-plugin", tools: [tool] })}'`,
    "# 3. Pick the session on the Compare page; answer tool requests on its stream:",
    `#    GET ${api}/CODE/stream (see examples/relay-plugin/table_plugin.py)`,
  ].join("\n");
}
