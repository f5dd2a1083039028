// The Sources panel: the template's tool sources (MCP servers, relay plugins), each with the section
// its tools belong to (a select that attaches it elsewhere), what starting it does, the user's answer
// (Allow… asks first, naming exactly what will run or be contacted; Revoke takes it back; a changed
// definition asks again; an unsaved template must be saved first), where its tools come from and why
// a lower tier was used, and its problems; Edit and Remove, Add source; Discover now (the allowed
// sources started, listed and shut down) and Write snapshots (what was listed live, as each
// source's snapshot: an edit like any other, undone by Undo and kept by Save); and the template's
// tools, the ones written in it first (each with where: its own tools or a section) and then every
// source's, with their metadata, filtered by kind, category and source (or written); then the app's
// own plugin relay (RelayPanel). Its state lives in SourcesStore; its edits go to the document
// through `onEdit`.
import { useState, useSyncExternalStore, type ReactNode } from "react";
import { count, PERMISSION_WORDS, permissionText } from "../shared/words";
import type { ProblemView, SourceView, Template, ToolKind } from "../platform";
import { ProblemItems } from "../shared/ProblemItems";
import {
  type CatalogTool,
  filterChoices,
  filterTools,
  KIND_WORDS,
  liveLists,
  originText,
  problemsAt,
  snapshotDiffers,
  type SourceRow,
  sourceRows,
  toolCatalog,
  type ToolFilter,
  toolsText,
  WRITTEN,
  WRITTEN_WORDS,
} from "./catalog";
import { AllowDialog } from "./AllowDialog";
import { FailureAlert } from "../shared/ActionOutcome";
import { RelayPanel } from "./RelayPanel";
import { SectionSelect, SourceForm } from "./SourceForm";
import {
  addSourceEdit,
  attachSourceEdit,
  removeSourceEdit,
  replaceSourceEdit,
  snapshotEdit,
  sourcesOf,
} from "./sourceEdits";
import type { SourcesBusy, SourcesStore } from "./store";
import type { EditRequest } from "../shared/template";
import "./sources.css";

/** What is under way, in words. */
const BUSY_WORDS: Readonly<Record<SourcesBusy, string>> = {
  allow: "Allowing…",
  revoke: "Taking the permission back…",
  discover: "Starting the allowed sources and listing their tools…",
};

export function SourcesPanel({
  store,
  template,
  sections,
  problems,
  onEdit,
}: {
  store: SourcesStore;
  template: Template;
  /** The template's section paths, in tree order. */
  sections: readonly string[];
  /** The template's problems (a source's are at `/sources/<index>/…`). */
  problems: readonly ProblemView[];
  /** Sends an edit of the sources, built from the template as it stands when its turn comes. */
  onEdit: (build: (template: Template) => EditRequest | null) => void;
}) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const sources = sourcesOf(template);
  const rows = sourceRows(sources, state.views, state.discovered);
  const [adding, setAdding] = useState(false);
  /** The source open in the form, by name. */
  const [editing, setEditing] = useState<string | null>(null);
  /** The source whose Allow question is open, by name. */
  const [asking, setAsking] = useState<string | null>(null);
  const askingView = rows.find((row) => row.source.name === asking)?.view ?? null;
  const busy = state.busy !== null;
  // Only servers are allowed: a relay source starts nothing and is never asked about.
  const servers = rows.filter((row) => (row.source.mcp ?? null) !== null);
  const noServerAllowed = servers.length > 0 && !servers.some((row) => row.view?.permission === "allowed");
  const stale = rows.filter(snapshotDiffers);

  return (
    <section className="sources-panel" data-testid="sources-panel" aria-labelledby="sources-title">
      <h2 id="sources-title">Tool sources</h2>
      <p className="notice sources-lead">
        Tools an MCP server or a relay plugin offers at run time, beside a section's written ones. Opening a template
        never starts one: each starts only once you allow it for this file.
      </p>
      <div className="sources-actions">
        <button
          type="button"
          data-testid="discover-sources"
          disabled={busy || rows.length === 0}
          title="Start the allowed sources, list their tools now, and shut them down"
          onClick={() => void store.discover()}
        >
          Discover now
        </button>
        <button
          type="button"
          data-testid="snapshot-sources"
          disabled={stale.length === 0}
          title={
            stale.length === 0
              ? "After a discovery, writes what each source listed live as its snapshot"
              : `Write what ${stale.map((row) => row.source.name).join(", ")} listed live as the snapshot (undo takes it back; save the template to keep it)`
          }
          onClick={() => {
            const lists = liveLists(rows);
            onEdit((t) => snapshotEdit(t, lists));
          }}
        >
          Write snapshots
        </button>
        <button
          type="button"
          data-testid="add-source"
          disabled={adding}
          onClick={() => {
            setAdding(true);
          }}
        >
          Add source
        </button>
        <span className="sources-status" role="status" data-testid="sources-status">
          {state.busy !== null
            ? BUSY_WORDS[state.busy]
            : noServerAllowed
              ? "No server is allowed: discovery lists none of them live."
              : ""}
        </span>
      </div>
      {state.failure !== null && (
        <FailureAlert
          failure={state.failure}
          testId="sources-failure"
          onDismiss={() => {
            store.dismissFailure();
          }}
        />
      )}
      {adding && (
        <SourceForm
          sources={sources}
          sections={sections}
          section={null}
          onApply={(source) => {
            setAdding(false);
            onEdit((t) => addSourceEdit(t, source));
          }}
          onCancel={() => {
            setAdding(false);
          }}
        />
      )}
      {rows.length === 0 ? (
        <p className="notice" data-testid="source-list">
          No sources
        </p>
      ) : (
        <ul className="source-list" data-testid="source-list">
          {rows.map((row) => (
            <SourceCard
              key={`${String(row.index)}:${row.source.name}`}
              row={row}
              sections={sections}
              problems={problemsAt(problems, row.index)}
              busy={busy}
              onAllow={() => {
                setAsking(row.source.name);
              }}
              onRevoke={() => void store.revoke(row.source.name)}
              onAttach={(section) => {
                onEdit((t) => attachSourceEdit(t, { index: row.index, name: row.source.name }, section));
              }}
              onRemove={() => {
                onEdit((t) => removeSourceEdit(t, { index: row.index, name: row.source.name }));
              }}
              editing={editing === row.source.name}
              onEditing={(open) => {
                setEditing(open ? row.source.name : null);
              }}
              form={
                <SourceForm
                  source={row.source}
                  sources={sources}
                  sections={sections}
                  section={row.source.section}
                  onApply={(source) => {
                    setEditing(null);
                    onEdit((t) => replaceSourceEdit(t, { index: row.index, name: row.source.name }, source));
                  }}
                  onCancel={() => {
                    setEditing(null);
                  }}
                />
              }
            />
          ))}
        </ul>
      )}
      <h3>The template's tools</h3>
      <ToolCatalog
        tools={toolCatalog(template, rows)}
        filter={state.filter}
        onFilter={(change) => {
          store.setFilter(change);
        }}
      />
      <RelayPanel store={store.relay} />
      {askingView !== null && (
        <AllowDialog
          view={askingView}
          onAllow={() => {
            setAsking(null);
            void store.allow(askingView.name);
          }}
          onCancel={() => {
            setAsking(null);
          }}
        />
      )}
    </section>
  );
}

function SourceCard({
  row,
  sections,
  problems,
  busy,
  editing,
  form,
  onAllow,
  onRevoke,
  onAttach,
  onRemove,
  onEditing,
}: {
  row: SourceRow;
  sections: readonly string[];
  problems: readonly ProblemView[];
  busy: boolean;
  editing: boolean;
  /** The form that edits it, shown while `editing`. */
  form: ReactNode;
  onAllow: () => void;
  onRevoke: () => void;
  onAttach: (section: string | null) => void;
  onRemove: () => void;
  onEditing: (open: boolean) => void;
}) {
  const { source, view } = row;
  const name = source.name;
  return (
    <li className="source-card" data-testid="source" data-name={name}>
      <div className="source-head">
        <strong className="source-name">{name}</strong>
        {view !== null && (
          <span
            className={`permission ${view.permission}`}
            data-testid="source-permission"
            data-permission={view.permission}
          >
            {PERMISSION_WORDS[view.permission]}
          </span>
        )}
        <span className="source-head-actions">
          <button
            type="button"
            data-testid="edit-source"
            aria-label={`Edit source ${name}`}
            aria-pressed={editing}
            onClick={() => {
              onEditing(!editing);
            }}
          >
            Edit
          </button>
          <button type="button" data-testid="remove-source" aria-label={`Remove source ${name}`} onClick={onRemove}>
            Remove
          </button>
        </span>
      </div>
      <label className="source-section">
        <span>Its tools belong to</span>
        <SectionSelect testId="source-section" section={source.section} sections={sections} onChange={onAttach} />
      </label>
      {view === null ? (
        <p className="notice">Asking what it starts…</p>
      ) : (
        <>
          <p className="source-starts">
            <code data-testid="source-starts">{view.starts}</code>
            {view.remote && (
              <span className="source-remote" data-testid="source-remote" title="Its URL is not on this machine">
                another machine
              </span>
            )}
          </p>
          <PermissionLine view={view} busy={busy} onAllow={onAllow} onRevoke={onRevoke} />
          <p className="source-tools-line" data-testid="source-tools-line" data-tier={view.tier}>
            {toolsText(view)}
            {snapshotDiffers(row) && <span className="source-note"> (not its snapshot yet)</span>}
          </p>
          {view.error !== null && (
            <p className="source-error" data-testid="source-error">
              {view.error}
            </p>
          )}
        </>
      )}
      {problems.length > 0 && (
        <ProblemItems
          problems={problems}
          whole="source"
          testId="source-problems"
          className="error source-problems"
          label={`Problems of source ${name}`}
        />
      )}
      {editing && form}
    </li>
  );
}

/** The user's answer, what it means, and the button that changes it. */
function PermissionLine({
  view,
  busy,
  onAllow,
  onRevoke,
}: {
  view: SourceView;
  busy: boolean;
  onAllow: () => void;
  onRevoke: () => void;
}) {
  const button =
    view.permission === "allowed" ? (
      <button
        type="button"
        data-testid="revoke-source"
        aria-label={`Revoke source ${view.name}`}
        disabled={busy}
        onClick={onRevoke}
      >
        Revoke
      </button>
    ) : view.permission === "unsaved" || view.permission === "not_needed" ? null : (
      <button
        type="button"
        data-testid="allow-source"
        aria-label={`Allow source ${view.name}`}
        disabled={busy}
        onClick={onAllow}
      >
        {view.permission === "changed" ? "Allow again…" : "Allow…"}
      </button>
    );
  return (
    <p className={`source-permission-line ${view.permission}`}>
      <span data-testid="source-permission-text">{permissionText(view.permission)}</span> {button}
    </p>
  );
}

/** The template's tools (written ones first, then every source's) with their metadata, and the filters over them. */
function ToolCatalog({
  tools,
  filter,
  onFilter,
}: {
  tools: readonly CatalogTool[];
  filter: ToolFilter;
  onFilter: (change: Partial<ToolFilter>) => void;
}) {
  const choices = filterChoices(tools);
  const shown = filterTools(tools, filter);
  // A filter keeps its choice while no tool has it any more, so it can be seen and cleared.
  const kinds: ToolKind[] =
    filter.kind === null || choices.kinds.includes(filter.kind) ? choices.kinds : [...choices.kinds, filter.kind];
  const categories =
    filter.category === null || choices.categories.includes(filter.category)
      ? choices.categories
      : [...choices.categories, filter.category];
  const sources =
    filter.source === null || filter.source === WRITTEN || choices.sources.includes(filter.source)
      ? choices.sources
      : [...choices.sources, filter.source];
  const written = choices.written || filter.source === WRITTEN;
  const any = (value: string): string | null => (value === "" ? null : value);
  if (tools.length === 0 && filter.source === null && filter.category === null && filter.kind === null) {
    return (
      <p className="notice" data-testid="source-tool-list">
        No tools: write them in a section or in the Template tab, or add a source and discover its tools.
      </p>
    );
  }
  return (
    <>
      <div className="source-filters" role="group" aria-label="Filter the tools">
        <label>
          <span>Kind</span>
          <select
            data-testid="filter-kind"
            value={filter.kind ?? ""}
            onChange={(event) => {
              onFilter({ kind: kinds.find((kind) => kind === event.target.value) ?? null });
            }}
          >
            <option value="">All kinds</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Category</span>
          <select
            data-testid="filter-category"
            value={filter.category ?? ""}
            onChange={(event) => {
              onFilter({ category: any(event.target.value) });
            }}
          >
            <option value="">All categories</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Source</span>
          <select
            data-testid="filter-source"
            value={filter.source ?? ""}
            onChange={(event) => {
              onFilter({ source: any(event.target.value) });
            }}
          >
            <option value="">All sources</option>
            {written && <option value={WRITTEN}>{WRITTEN_WORDS}</option>}
            {sources.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
        </label>
        <span className="notice" data-testid="source-tool-count">
          {shown.length === tools.length
            ? count(tools.length, "tool")
            : `${String(shown.length)} of ${count(tools.length, "tool")}`}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="notice" data-testid="source-tool-list">
          No tool matches these filters.
        </p>
      ) : (
        <ul className="source-tools" data-testid="source-tool-list">
          {shown.map(({ source, section, tool }, index) => (
            <li
              key={`${source ?? WRITTEN}:${tool.name}:${String(index)}`}
              data-testid="source-tool"
              data-name={tool.name}
              data-source={source ?? ""}
              data-origin={source === null ? "written" : "source"}
              data-section={section ?? ""}
            >
              <div className="source-tool-head">
                <code className="source-tool-name">{tool.name}</code>
                <span className="source-tool-source" data-testid="source-tool-origin">
                  {originText({ source, section })}
                </span>
                {tool.kind !== undefined && (
                  <span
                    className={`tool-kind ${tool.kind}`}
                    data-testid="source-tool-kind"
                    title={`What it does: ${KIND_WORDS[tool.kind]}`}
                  >
                    {tool.kind}
                  </span>
                )}
                {tool.requires_permission === true && (
                  <span className="tool-asks" data-testid="source-tool-asks" title="A person must allow each call">
                    asks permission
                  </span>
                )}
                {(tool.categories ?? []).map((category) => (
                  <span key={category} className="tool-category" data-testid="source-tool-category">
                    {category}
                  </span>
                ))}
              </div>
              {tool.description !== "" && <p className="source-tool-description">{tool.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
