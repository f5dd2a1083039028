// The Edit page of the open template: the section tree with its structure toolbar, its filter
// field (Enter goes to the first match), keys and the badges of its sections' source tools, the edit pane's tabs (the selected section's editor and
// tools, the Template panel, or the Sources tab the page is given), the problems of the open work,
// and the preview. All state and actions live in EditorStore; the tab shown is the frame's, so that
// it stays while another page shows.
import { useCallback, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import type { DisclosureEconomics, ScenarioView } from "../platform";
import { problemGroups, type ProblemGroup } from "../shared/problemGroups";
import { ProblemsPanel } from "../shared/ProblemsPanel";
import type { SplitSpec } from "../shared/paneLayout";
import { SplitPanes, useStoredPaneLayout } from "../shared/SplitPanes";
import { sectionAt } from "../shared/template";
import { siblingKeys } from "./edits";
import { PreviewPane } from "./PreviewPane";
import { readableRows } from "./reading";
import { SectionEditor } from "./SectionEditor";
import { SectionTools } from "./SectionTools";
import { SectionTree, type SourceBadge } from "./SectionTree";
import { shownRows, type EditorStore } from "./store";
import { TemplatePanel } from "./TemplatePanel";
import { storeToolActions } from "./ToolList";
import { sectionOwner, TEMPLATE_OWNER } from "./tools";
import type { TreeKeyAction } from "./treeKeys";
import { TreeFilter } from "./TreeFilter";
import { TreeToolbar } from "./TreeToolbar";

/** What the middle pane shows: the selected section, the template's settings and parameters, or its tool sources. */
export type EditTab = "section" | "template" | "sources";

const TAB_NAMES: Readonly<Record<EditTab, string>> = { section: "Section", template: "Template", sources: "Sources" };

/**
 * The panes: the tree keeps a width where titles read (in a 1024 px window too); the editor, the
 * flexible one, gives way to its minimum first, then the preview.
 */
export const EDIT_SPLIT: SplitSpec = {
  storageKey: "unfold.panes.edit",
  panes: [
    { id: "tree", name: "sections", side: "before", min: 180, initial: 280 },
    { id: "preview", name: "preview", side: "after", min: 240, initial: 560 },
  ],
  flexMin: 320,
};

/**
 * The Edit page of `store`'s document on the tab `tab`; `sourcesTab` is what its Sources tab shows,
 * `sourceBadges` the badge of each section with source tools (by path), and `onSourceBadge` what
 * pressing one does besides showing the Sources tab.
 */
export function EditPage({
  store,
  problems,
  tab,
  onTab,
  sourcesTab,
  sourceBadges,
  onSourceBadge,
  economics = null,
}: {
  store: EditorStore;
  problems: readonly ProblemGroup[];
  tab: EditTab;
  onTab: (tab: EditTab) => void;
  sourcesTab: ReactNode;
  sourceBadges?: ReadonlyMap<string, SourceBadge>;
  onSourceBadge?: (path: string) => void;
  /** The economics of the template's disclosure, as last read (null: not yet, or it does not render). */
  economics?: DisclosureEconomics | null;
}) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const [layout, onLayout] = useStoredPaneLayout(EDIT_SPLIT);
  /** Bumped to put focus on the tree's selected row. */
  const [treeFocus, setTreeFocus] = useState(0);
  const readCosts = useMemo(
    () => new Map((economics?.sections ?? []).map((section) => [section.path, section])),
    [economics],
  );
  const sizes = useMemo(() => new Map((economics?.section_sizes ?? []).map((size) => [size.path, size])), [economics]);
  const { document, selected } = state;
  const section = selected === null ? undefined : sectionAt(document.template, selected);
  const sourceCount = document.template.sources?.length ?? 0;
  // The same list and handler from one keystroke to the next: the preview's list of sections to
  // show as read is not drawn again.
  const readable = useMemo(() => readableRows(state.rows), [state.rows]);
  const onRead = useCallback(
    (path: string, read: boolean) => {
      store.setRead(path, read);
    },
    [store],
  );

  const onTreeKey = (action: TreeKeyAction) => {
    if (action === "select_previous") store.selectAdjacent(-1);
    else if (action === "select_next") store.selectAdjacent(1);
    else if (action === "toggle_visibility") {
      if (selected !== null) void store.toggleVisibility(selected);
    } else void store.restructure(selected, action);
  };

  return (
    <SplitPanes split={EDIT_SPLIT} layout={layout} onLayout={onLayout} className="panes">
      <nav className="pane tree-pane" aria-label="Sections">
        <TreeToolbar
          template={document.template}
          selected={selected}
          onAction={(action) => void store.restructure(selected, action)}
        />
        <TreeFilter
          query={state.filter}
          matches={state.filtered?.matches.size ?? null}
          total={state.rows.length}
          onQuery={(query) => {
            store.setFilter(query);
          }}
          onGo={() => {
            if (!store.selectFirstMatch()) return;
            onTab("section");
            setTreeFocus((request) => request + 1);
          }}
        />
        <SectionTree
          rows={shownRows(state)}
          filtered={state.filtered}
          focusRequest={treeFocus}
          template={document.template}
          selected={selected}
          onSelect={(path) => {
            store.select(path);
            onTab("section");
          }}
          onToggle={(path) => void store.toggleVisibility(path)}
          onKey={onTreeKey}
          onMove={(path, target) => void store.moveTo(path, target)}
          sourceBadges={sourceBadges}
          onSourceBadge={(path) => {
            onSourceBadge?.(path);
            onTab("sources");
          }}
          readCosts={readCosts}
          sizes={sizes}
        />
      </nav>
      <div className="pane edit-pane">
        <div className="tabs" role="tablist" aria-label="Edit">
          {(["section", "template", "sources"] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              data-testid={`tab-${name}`}
              aria-selected={tab === name}
              onClick={() => {
                onTab(name);
              }}
            >
              {name === "sources" && sourceCount > 0 ? `${TAB_NAMES[name]} (${String(sourceCount)})` : TAB_NAMES[name]}
            </button>
          ))}
        </div>
        {tab === "sources" ? (
          sourcesTab
        ) : tab === "template" ? (
          <TemplatePanel
            key={String(state.revision)}
            template={document.template}
            revision={state.revision}
            toolActions={storeToolActions(store, TEMPLATE_OWNER)}
            onSetting={(field, value) => void store.setSetting(field, value)}
            onParam={(name, value) => void store.setParam(name, value)}
            onRenameParam={(from, to) => void store.renameParam(from, to)}
            onAddParam={() => void store.addParam()}
            onRemoveParam={(name) => void store.removeParam(name)}
            sourceCount={sourceCount}
            onOpenSources={() => {
              onTab("sources");
            }}
          />
        ) : selected !== null && section !== undefined ? (
          <>
            <SectionEditor
              // Another section selected, or a document changed by undo/redo: start from its fields
              // again. Not keyed by its path: a rename or move keeps the editor and the focus in it.
              key={`${String(state.selection)}#${String(state.revision)}`}
              path={selected}
              section={section}
              siblingKeys={siblingKeys(document.template, selected)}
              params={Object.keys(document.template.params)}
              focusKey={state.added === selected}
              onField={(field, value) => void store.setField(selected, field, value)}
              onRename={(key) => void store.rename(selected, key)}
              onVisibility={(visibility) => void store.setVisibility(selected, visibility)}
              onDefineParam={(name) => void store.defineParam(name)}
              size={sizes.get(selected)}
            />
            <SectionTools
              key={String(state.selection)}
              path={selected}
              section={section}
              revision={state.revision}
              actions={storeToolActions(store, sectionOwner(selected))}
              onRead={(text) => store.importTools(text)}
              onChooseFile={() => store.chooseToolList()}
              onAttach={(tools, conflicts) => void store.attachTools(selected, tools, conflicts)}
            />
          </>
        ) : (
          <p className="notice">This template has no sections.</p>
        )}
        <ProblemsPanel groups={problems} />
      </div>
      <PreviewPane
        preview={state.preview}
        expandAll={state.expandAll}
        onExpandAll={(expandAll) => {
          store.setExpandAll(expandAll);
        }}
        readable={readable}
        read={state.read}
        onRead={onRead}
        economics={economics}
        template={document.template}
        selected={selected}
        selection={state.selection}
      />
    </SplitPanes>
  );
}

/**
 * Every problem of the open work (see problemGroups), as the Edit and Compare pages list it: the
 * template's, its preview's, its tools not applied, and `scenario`'s (the Compare page's).
 */
export function useWorkProblems(store: EditorStore, scenario: ScenarioView | null): ProblemGroup[] {
  const { document, preview, unappliedTools } = useSyncExternalStore(store.subscribe, store.getState);
  return useMemo(
    () =>
      problemGroups({
        template: document.problems,
        render: preview.kind === "failed" ? preview.problems : null,
        unappliedTools: Object.values(unappliedTools),
        scenario,
      }),
    [document.problems, preview, unappliedTools, scenario],
  );
}
