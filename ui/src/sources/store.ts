// The state of an open template's tool sources beside the editor, without React: the backend's view
// of each (the user's answer, what starting it does, its tools and where they came from), asked
// again whenever the template's sources or its file change; the user's answers (allow, revoke); a
// discovery (the allowed sources started, listed and shut down), whose lists are kept, by source,
// for as long as that source's definition stays the one started; and the catalog's filter. It
// follows the document of the store it is given (the editor's) on every change of it. Editing the
// sources is an edit of the document (EditorStore.editSources). The app's relay has its own store
// (relay.ts). React reads it through `subscribe`/`getState`.
import type { DocumentView, Outcome, Platform, SourceView, ToolSource } from "../platform";
import { ExternalStore, TaskQueue } from "../shared/ExternalStore";
import { briefFailureOf, type BriefFailure } from "../shared/failure";
import { RelayStore } from "./relay";
import { definitionOf, NO_FILTER, type Discovered, type ToolFilter } from "./catalog";
import { sameJsonIgnoringUndefined } from "../shared/json";

/** What is under way: one answer, or a discovery, at a time. */
export type SourcesBusy = "allow" | "revoke" | "discover";

export interface SourcesState {
  /** The backend's last answer, one view per source of the template then; null before the first. */
  views: SourceView[] | null;
  /** What the last discovery found, by source name, with the definition it started. */
  discovered: Record<string, Discovered>;
  /** Whether a discovery has been made (its lists may since have gone with their definitions). */
  hasDiscovered: boolean;
  busy: SourcesBusy | null;
  failure: BriefFailure | null;
  /** The catalog's filter. */
  filter: ToolFilter;
}

/** The part of the open document the sources follow. */
type Followed = Pick<DocumentView, "id" | "path" | "template">;

/** A store holding the open document (the editor's): the sources follow each change of it. */
export interface DocumentHolder {
  getState: () => { document: Followed };
  subscribe: (listener: () => void) => () => void;
}

export class SourcesStore extends ExternalStore<SourcesState> {
  /** Answers, allow, revoke and discovery run one after the other. */
  private readonly queue = new TaskQueue();
  /** The document as last followed (its id, file and sources), to ask again only when they change. */
  private followed: { id: number; path: string | null; sources: ToolSource[] | undefined } | null = null;
  /** Counts the requests sent: an answer older than one taken already is dropped. */
  private sent = 0;
  private taken = 0;
  /** The app's own plugin relay, shown at the end of the Sources tab. */
  readonly relay: RelayStore;

  /** The document as it is now. */
  private readonly document: () => Followed;

  /**
   * `listedChanged`: what the backend shows of the sources changed (a discovery listed them, or a
   * permission was taken back), so the preview and its figures are read again.
   */
  constructor(
    private readonly platform: Platform,
    holder: DocumentHolder,
    private readonly listedChanged: () => void = () => undefined,
  ) {
    super({ views: null, discovered: {}, hasDiscovered: false, busy: null, failure: null, filter: NO_FILTER });
    this.relay = new RelayStore(platform);
    this.document = () => holder.getState().document;
    void this.follow();
    holder.subscribe(() => void this.follow());
  }

  /**
   * Follows the document: when its sources or its file changed since last asked, asks for the views
   * again (a template without sources needs no question). Called on every change of the holder.
   */
  follow(): Promise<void> {
    const { id, path, template } = this.document();
    const sources = template.sources ?? [];
    const last = this.followed;
    if (last !== null && last.id === id && last.path === path) {
      if (last.sources === template.sources) return Promise.resolve();
      // Another change answered with the whole template: its sources are new objects, but the same.
      if (sameJsonIgnoringUndefined(last.sources ?? [], sources)) {
        this.followed = { id, path, sources: template.sources };
        return Promise.resolve();
      }
    }
    this.followed = { id, path, sources: template.sources };
    if (sources.length === 0) {
      this.sent += 1;
      this.taken = this.sent;
      this.update({ views: [] });
      return Promise.resolve();
    }
    return this.reread();
  }

  /** Asks for the views again (the answers were changed elsewhere: allowed before a run). */
  reread(): Promise<void> {
    return this.ask(null, (documentId) => this.platform.templateSources(documentId));
  }

  /** Allows the source `name` as the document defines it now (after the question was answered). */
  allow(name: string): Promise<void> {
    return this.ask({ busy: "allow", title: `Source '${name}' was not allowed` }, (id) =>
      this.platform.allowSource(id, name),
    );
  }

  /** Takes back the permission of the source `name`; what a discovery listed of it goes too. */
  revoke(name: string): Promise<void> {
    return this.ask({ busy: "revoke", title: `Source '${name}' was not revoked` }, async (id) => {
      const answer = await this.platform.revokeSource(id, name);
      if (answer.ok) {
        const discovered = Object.fromEntries(
          Object.entries(this.state.discovered).filter(([source]) => source !== name),
        );
        this.update({ discovered });
        this.listedChanged();
      }
      return answer;
    });
  }

  /** Starts the allowed sources, lists their tools now and shuts them down; keeps what each listed. */
  discover(): Promise<void> {
    return this.ask({ busy: "discover", title: "The sources were not discovered" }, async (id) => {
      const sources = this.document().template.sources ?? [];
      const answer = await this.platform.discoverSources(id);
      if (answer.ok) {
        const discovered: Record<string, Discovered> = {};
        for (const view of answer.value) {
          const source = sources.find((s) => s.name === view.name);
          if (source === undefined) continue;
          discovered[view.name] = {
            definition: definitionOf(source),
            tier: view.tier,
            tools: view.tools,
            error: view.error,
          };
        }
        this.update({ discovered, hasDiscovered: true });
        this.listedChanged();
      }
      return answer;
    });
  }

  setFilter(change: Partial<ToolFilter>): void {
    this.update({ filter: { ...this.state.filter, ...change } });
  }

  dismissFailure(): void {
    this.update({ failure: null });
  }

  /**
   * Sends one request for the views, in turn; its answer replaces them unless a later request's was
   * taken already. `action` names what is under way and what a refusal is titled (null: the views
   * are only being read again, and a failure to read them says so).
   */
  private ask(
    action: { busy: SourcesBusy; title: string } | null,
    request: (documentId: number) => Promise<Outcome<SourceView[]>>,
  ): Promise<void> {
    const ticket = ++this.sent;
    return this.queue.run(async () => {
      if (action !== null) this.update({ busy: action.busy, failure: null });
      const answer = await request(this.document().id);
      if (action !== null) this.update({ busy: null });
      if (ticket < this.taken) return;
      this.taken = ticket;
      if (!answer.ok) {
        this.update({ failure: briefFailureOf(action?.title ?? "The sources could not be read", answer.error) });
        return;
      }
      this.update({ views: answer.value, ...(action === null ? {} : { failure: null }) });
    });
  }
}
