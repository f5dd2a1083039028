// The preview pane: the prompt's token count (and how much of it the tool definitions take), the
// offered tools (a list that closes, closed or not across restarts; each opens to the JSON the model
// is sent) and the markdown as text (never parsed as HTML), or the render error in their place; a
// switch to show every section in full, and per summarized section, a switch to show it as read
// (what a `read_section` of it would reveal). The selected section's text is marked, and scrolled
// into view when another section is selected (not as it is typed in).
import { memo, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { DisclosureEconomics, JsonValue, Template } from "../platform";
import { firstPromptText, longerBecause } from "./economics";
import { formatTokens, toolNames } from "../shared/view";
import { usePreviewDrawnMark } from "./previewDrawnMark";
import type { ShownPreview } from "./changes";
import "./find.css";
import { sectionPartIndex } from "./previewPlace";
import { OFFERED_TOOLS_CLOSED, useRememberedFlag } from "./rememberedFlag";
import type { PreviewState } from "./store";
import type { TreeRow } from "./tree";

/** Beyond this many summarized sections the list starts filtered, so a huge template stays quick. */
const LISTED_WITHOUT_FILTER = 50;

export function PreviewPane({
  preview,
  expandAll,
  onExpandAll,
  readable,
  read,
  onRead,
  economics = null,
  template,
  selected,
  selection,
}: {
  preview: PreviewState;
  expandAll: boolean;
  onExpandAll: (expandAll: boolean) => void;
  /** The summarized sections, which the preview can show as read. */
  readable: TreeRow[];
  read: string[];
  onRead: (path: string, read: boolean) => void;
  /** The economics of the template's disclosure (null: not read yet, or it does not render). */
  economics?: DisclosureEconomics | null;
  /** The template previewed, for where its sections are in the prompt. */
  template: Template;
  /** The selected section's path. */
  selected: string | null;
  /** Which section is selected (EditorState's `selection`): the pane scrolls when it changes. */
  selection: number;
}) {
  usePreviewDrawnMark(preview.kind === "ready");
  const pane = useRef<HTMLElement>(null);
  const parts = heldParts(preview);
  // Found again when the prompt changes: a look at the start of each part, no more; the mark is
  // drawn again only in the chunks that hold it or held it.
  const marked = useMemo(
    () => (parts === null || selected === null ? null : sectionPartIndex(parts, template, selected)),
    [parts, template, selected],
  );
  useScrollToSelected(pane, selection, marked);
  return (
    <section ref={pane} className="pane preview-pane" aria-label="Preview">
      <h2>Preview</h2>
      <label className="check">
        <input
          type="checkbox"
          data-testid="expand-all"
          checked={expandAll}
          onChange={(event) => {
            onExpandAll(event.target.checked);
          }}
        />{" "}
        Every section in full
      </label>
      {economics !== null && <Economics economics={economics} />}
      {readable.length > 0 && !expandAll && <ReadSections readable={readable} read={read} onRead={onRead} />}
      <PreviewBody preview={preview} marked={marked} />
    </section>
  );
}

/** The prompt's parts the pane shows, the last good ones under a render failure; null while none. */
function heldParts(preview: PreviewState): string[] | null {
  if (preview.kind === "ready") return preview.preview.parts;
  return preview.kind === "failed" ? (preview.last?.parts ?? null) : null;
}

/**
 * Scrolls the selected section's text (the part `marked`) to the top of `pane` once for each
 * `selection` after the first (the pane opens at its top: tokens and tools first), as soon as the
 * preview shows it; a keystroke or another preview of the same selection leaves the scroll alone.
 */
function useScrollToSelected(pane: RefObject<HTMLElement | null>, selection: number, marked: number | null) {
  const scrolledFor = useRef(selection);
  useEffect(() => {
    if (scrolledFor.current === selection || marked === null) return;
    const target = pane.current?.querySelector('[data-testid="preview-selected-section"]');
    if (target == null) return;
    scrolledFor.current = selection;
    target.scrollIntoView({ block: "start" });
  }, [pane, selection, marked]);
}

/** What summarizing saves on the first prompt, and why it costs more when it does. */
function Economics({ economics }: { economics: DisclosureEconomics }) {
  const longer = longerBecause(economics);
  return (
    <div className="economics" data-testid="economics">
      <p className="first-prompt" data-testid="first-prompt">
        {firstPromptText(economics)}
      </p>
      {longer !== null && (
        <p className="notice" data-testid="longer-because">
          {longer}
        </p>
      )}
    </div>
  );
}

/** Drawn again only when the summarized sections, those read or the handler change (not on a keystroke). */
const ReadSections = memo(function ReadSections({
  readable,
  read,
  onRead,
}: {
  readable: TreeRow[];
  read: string[];
  onRead: (path: string, read: boolean) => void;
}) {
  const [filter, setFilter] = useState("");
  const marked = new Set(read);
  const needle = filter.trim().toLowerCase();
  const shown =
    needle === ""
      ? readable.slice(0, LISTED_WITHOUT_FILTER)
      : readable
          .filter((row) => `${row.path} ${row.title}`.toLowerCase().includes(needle))
          .slice(0, LISTED_WITHOUT_FILTER);
  return (
    <details className="read-sections" data-testid="read-sections">
      <summary>
        Show as read ({read.length} of {readable.length} summarized)
      </summary>
      {readable.length > LISTED_WITHOUT_FILTER && (
        <input
          type="search"
          aria-label="Filter summarized sections"
          placeholder="Filter by key or title"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
          }}
        />
      )}
      <ul>
        {shown.map((row) => (
          <li key={row.path}>
            <label className="check">
              <input
                type="checkbox"
                data-testid="read-section"
                data-path={row.path}
                checked={marked.has(row.path)}
                onChange={(event) => {
                  onRead(row.path, event.target.checked);
                }}
              />{" "}
              <code>{row.path}</code> {row.title}
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
});

/** The preview, with the part `marked` (the selected section's) marked. */
function PreviewBody({ preview, marked }: { preview: PreviewState; marked: number | null }) {
  switch (preview.kind) {
    case "loading":
      return <p className="notice">Rendering…</p>;
    case "failed":
      return (
        <>
          <div className="error" role="alert" data-testid="preview-error">
            <strong>{preview.title}</strong>
            <p>{preview.detail}</p>
            {preview.last !== null && <p data-testid="preview-stale">The last render it had is shown below, dimmed.</p>}
          </div>
          {preview.last !== null && (
            <div className="preview-stale" aria-label="The last render">
              <PreviewContent preview={preview.last} marked={marked} />
            </div>
          )}
        </>
      );
    case "ready":
      return <PreviewContent preview={preview.preview} marked={marked} />;
  }
}

/** A rendered preview: its tokens, the offered tools, the prompt with the part `marked` marked. */
function PreviewContent({ preview, marked }: { preview: ShownPreview; marked: number | null }) {
  const { tools } = preview;
  return (
    <>
      <p data-testid="token-count">{formatTokens(preview.prompt_tokens)}</p>
      <p className="token-split" data-testid="token-split">
        {tokenSplit(preview.prompt_tokens, preview.tool_tokens, tools.length)}
      </p>
      <OfferedTools tools={tools} />
      <h3>Prompt</h3>
      {/* Text children become the <pre>'s textContent: template text is never parsed as HTML. */}
      <pre data-testid="preview-markdown">
        {chunked(preview.parts).map((parts, index) => (
          <PromptChunk key={index} parts={parts} marked={placeInChunk(marked, index)} />
        ))}
      </pre>
    </>
  );
}

/** How the prompt's tokens divide between its text and the definitions of `tools` tools. */
export function tokenSplit(total: number, toolTokens: number, tools: number): string {
  const text = `${(total - toolTokens).toLocaleString("en-US")} in the text`;
  if (tools === 0) return `${text}, no tool definitions`;
  const definitions = tools === 1 ? "the 1 tool definition" : `the ${String(tools)} tool definitions`;
  return `${text}, ${toolTokens.toLocaleString("en-US")} in ${definitions}`;
}

/**
 * The offered tools under a heading that closes and opens their list ("Offered tools (45)"), closed
 * or open as the user last left it; drawn again only for another list: a keystroke's preview keeps
 * the very list it had (see changes.ts).
 */
const OfferedTools = memo(function OfferedTools({ tools }: { tools: JsonValue[] }) {
  const [closed, setClosed] = useRememberedFlag(OFFERED_TOOLS_CLOSED, false);
  const names = toolNames(tools);
  if (names.length === 0)
    return (
      <>
        <h3>Offered tools</h3>
        <p data-testid="tool-list">No tools offered</p>
      </>
    );
  return (
    <>
      <h3>
        <button
          type="button"
          className="offered-tools-toggle"
          data-testid="offered-tools-toggle"
          aria-expanded={!closed}
          aria-controls="offered-tools"
          onClick={() => {
            setClosed(!closed);
          }}
        >
          Offered tools ({names.length.toLocaleString("en-US")})
        </button>
      </h3>
      {!closed && (
        <ul id="offered-tools" data-testid="tool-list" className="offered-tools">
          {names.map((name, index) => (
            <OfferedTool key={`${String(index)}:${name}`} name={name} tool={tools[index] ?? null} />
          ))}
        </ul>
      )}
    </>
  );
});

/** An offered tool's name, opening to the JSON the model is sent (made only once opened, so a closed list stays light). */
function OfferedTool({ name, tool }: { name: string; tool: JsonValue | null }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details
        onToggle={(event) => {
          setOpen(event.currentTarget.open);
        }}
      >
        <summary title={`The definition of ${name} as the model is sent it`}>{name}</summary>
        {open && <pre data-testid="offered-tool-json">{JSON.stringify(tool, null, 2)}</pre>}
      </details>
    </li>
  );
}

/**
 * Prompt parts (one per section) per chunk. The browser skips laying out chunks out of view, but
 * it still visits every skipped box on each layout: a box per part took 0.2 s per keystroke in a
 * 5,000-section template (WebKitGTK 2.50), a box per 50 parts takes 1 ms.
 */
const PARTS_PER_CHUNK = 50;

/** Where part `marked` is in chunk `chunk`; -1 when it is in another chunk, or none is marked. */
function placeInChunk(marked: number | null, chunk: number): number {
  const place = marked === null ? -1 : marked - chunk * PARTS_PER_CHUNK;
  return place >= 0 && place < PARTS_PER_CHUNK ? place : -1;
}

function chunked(parts: string[]): string[][] {
  const chunks: string[][] = [];
  for (let start = 0; start < parts.length; start += PARTS_PER_CHUNK)
    chunks.push(parts.slice(start, start + PARTS_PER_CHUNK));
  return chunks;
}

/**
 * A chunk of the prompt, its part at `marked` (the selected section's; out of range: none) marked;
 * rendered again only when one of its parts or the mark changed.
 */
const PromptChunk = memo(
  function PromptChunk({ parts, marked }: { parts: string[]; marked: number }) {
    const part = parts[marked];
    if (part === undefined) return <div className="prompt-chunk">{parts.join("")}</div>;
    return (
      <div className="prompt-chunk">
        {parts.slice(0, marked).join("")}
        <span className="preview-selected-section" data-testid="preview-selected-section">
          {part}
        </span>
        {parts.slice(marked + 1).join("")}
      </div>
    );
  },
  // Unchanged parts are the very same strings (see changes.ts): comparing them is instant.
  (before, after) =>
    before.marked === after.marked &&
    before.parts.length === after.parts.length &&
    before.parts.every((part, i) => part === after.parts[i]),
);
