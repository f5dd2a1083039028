// The edits the Sources panel sends, built from the document as it stands: the template's tool
// sources as one whole new list (`set_sources`), with a source added, changed, removed, attached to
// another section, or given the tools a discovery listed as its snapshot. A changed source is the
// old one spread with the changed fields, so fields the UI does not know (`x-` extensions) stay.
// Each builder returns null when nothing would change; each edit is an undo step of its own.
import type { Template, Tool, ToolSource } from "../platform";
import { sameJsonIgnoringUndefined } from "../shared/json";
import type { EditRequest } from "../shared/template";

/** The template's sources, in order (none when it has no `sources`). */
export function sourcesOf(template: Template): ToolSource[] {
  return template.sources ?? [];
}

/**
 * Which source an action is about: its position and the name it had there when the user acted, so
 * that an edit queued behind another that moved the list still finds it (or finds nothing).
 */
export interface SourceRef {
  index: number;
  name: string;
}

/** The position of the source `ref` names: at its index while the name is still there, else by name; -1 when gone. */
export function findSource(sources: readonly ToolSource[], ref: SourceRef): number {
  if (sources[ref.index]?.name === ref.name) return ref.index;
  return sources.findIndex((source) => source.name === ref.name);
}

/** Replaces the template's sources with `sources` (always the whole list); null when they are those already. */
export function setSourcesEdit(template: Template, sources: ToolSource[]): EditRequest | null {
  if (sameJsonIgnoringUndefined(sourcesOf(template), sources)) return null;
  return { edit: { op: "set_sources", sources }, group: null };
}

/** Appends `source` to the template's sources. */
export function addSourceEdit(template: Template, source: ToolSource): EditRequest | null {
  return setSourcesEdit(template, [...sourcesOf(template), source]);
}

/** The sources with the one `ref` names replaced by `change(it)`; null when it is gone. */
function changed(template: Template, ref: SourceRef, change: (source: ToolSource) => ToolSource): ToolSource[] | null {
  const sources = sourcesOf(template);
  const index = findSource(sources, ref);
  const source = sources[index];
  if (source === undefined) return null;
  return sources.map((other, i) => (i === index ? change(other) : other));
}

/** Replaces the source `ref` names with `source` (built over it, see sourceDraft.ts). */
export function replaceSourceEdit(template: Template, ref: SourceRef, source: ToolSource): EditRequest | null {
  const sources = changed(template, ref, () => source);
  return sources === null ? null : setSourcesEdit(template, sources);
}

/** Removes the source `ref` names. */
export function removeSourceEdit(template: Template, ref: SourceRef): EditRequest | null {
  const sources = sourcesOf(template);
  const index = findSource(sources, ref);
  if (index < 0) return null;
  return setSourcesEdit(
    template,
    sources.filter((_, i) => i !== index),
  );
}

/** Attaches the source `ref` names to the section at `section` (`null`: the template's own tools). */
export function attachSourceEdit(template: Template, ref: SourceRef, section: string | null): EditRequest | null {
  const sources = changed(template, ref, (source) => ({ ...source, section }));
  return sources === null ? null : setSourcesEdit(template, sources);
}

/**
 * Writes what a discovery listed (`listed`: each source's tools by name) as those sources' snapshots,
 * every source at once; the others keep theirs. Null when every snapshot is that list already.
 */
export function snapshotEdit(template: Template, listed: ReadonlyMap<string, readonly Tool[]>): EditRequest | null {
  const sources = sourcesOf(template).map((source) => {
    const tools = listed.get(source.name);
    return tools === undefined ? source : { ...source, snapshot: [...tools] };
  });
  return setSourcesEdit(template, sources);
}
