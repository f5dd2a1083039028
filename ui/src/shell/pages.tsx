// The pages as the frame shows them, each a feature's view given the stores of the open work it
// needs: the Edit page with its Sources tab (editor/ and sources/), the Compare page (compare/, with
// the scenario of scenario/ and the profiles of providers/), the run history (history/), the
// suites (suites/) and the host probe (hosts/). `PageView` routes a page to its view: the one place that does.
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { EditPage, type EditTab } from "../editor/EditPage";
import type { Template } from "../platform";
import { ProvidersDialog } from "../providers/ProvidersDialog";
import { offeredTools, templateParams } from "../scenario/offered";
import { ScenarioFileActions, ScenarioStart } from "../scenario/ScenarioFiles";
import { ScenarioPanel } from "../scenario/ScenarioPanel";
import type { ProblemGroup } from "../shared/problemGroups";
import { NO_FILTER, sourceBadges, sourceRows } from "../sources/catalog";
import { Deferred } from "../shared/Deferred";
import { compareView, historyView, hostsView, sourcesPanel, suitesView } from "./deferredViews";
import type { CompareStores, Page, TemplateStores, WorkspaceStore } from "./workspace";

/**
 * The view of `page`: with `template` open, the Edit page (on `tab`) and the Compare page too;
 * `problems` are the open work's, which both list.
 */
export function PageView({
  page,
  workspace,
  template,
  problems = [],
  tab = "section",
  onTab = () => undefined,
}: {
  page: Page;
  workspace: WorkspaceStore;
  template: TemplateStores | null;
  problems?: readonly ProblemGroup[];
  tab?: EditTab;
  onTab?: (tab: EditTab) => void;
}) {
  switch (page) {
    case "edit":
      return template === null ? null : (
        <TemplateEditPage template={template} problems={problems} tab={tab} onTab={onTab} />
      );
    case "compare":
      return template === null ? null : (
        <TemplateComparePage
          stores={workspace.compare}
          template={template}
          problems={problems}
          onOpenRun={(id) => void workspace.openKeptRun(id)}
          onForked={(kept) => void workspace.openFork(kept)}
        />
      );
    case "history":
      return (
        <Deferred
          module={historyView}
          show={(view) => (
            <view.HistoryView
              store={workspace.history}
              onOpenComparison={(template, scenario, run) => void workspace.openComparison(template, scenario, { run })}
            />
          )}
        />
      );
    case "suites":
      return <Deferred module={suitesView} show={(view) => <view.SuitesView store={workspace.suites} />} />;
    case "hosts":
      return (
        <Deferred
          module={hostsView}
          show={(view) => <view.HostsView store={workspace.hosts} onOpenRun={(id) => void workspace.openKeptRun(id)} />}
        />
      );
  }
}

/** The Edit page, its Sources tab the template's sources (a badge in the tree filters the tab to its sources). */
export function TemplateEditPage({
  template: { editor, sources, economics },
  problems,
  tab,
  onTab,
}: {
  template: TemplateStores;
  problems: readonly ProblemGroup[];
  tab: EditTab;
  onTab: (tab: EditTab) => void;
}) {
  const { document, rows } = useSyncExternalStore(editor.subscribe, editor.getState);
  const { economics: figures } = useSyncExternalStore(economics.subscribe, economics.getState);
  const { views, discovered } = useSyncExternalStore(sources.subscribe, sources.getState);
  const badges = useMemo(
    () => sourceBadges(sourceRows(document.template.sources ?? [], views, discovered)),
    [document.template.sources, views, discovered],
  );
  const sectionPaths = useMemo(() => rows.map((row) => row.path), [rows]);
  return (
    <EditPage
      store={editor}
      problems={problems}
      tab={tab}
      onTab={onTab}
      sourceBadges={badges}
      economics={figures}
      onSourceBadge={(path) => {
        const badge = badges.get(path);
        if (badge !== undefined)
          sources.setFilter({ ...NO_FILTER, source: badge.sources.length === 1 ? (badge.sources[0] ?? null) : null });
      }}
      sourcesTab={
        <Deferred
          module={sourcesPanel}
          show={(panel) => (
            <panel.SourcesPanel
              store={sources}
              template={document.template}
              sections={sectionPaths}
              problems={document.problems}
              onEdit={(build) => void editor.editSources(build)}
            />
          )}
        />
      }
    />
  );
}

/** The Compare page on the open template. */
function TemplateComparePage({
  stores,
  template: { editor },
  problems,
  onOpenRun,
  onForked,
}: {
  stores: CompareStores;
  template: TemplateStores;
  problems: readonly ProblemGroup[];
  /** Opens a kept run on the History's timeline (a study's repetition). */
  onOpenRun: (id: number) => void;
  /** Shows a fork beside its parent (the history's ids of its runs). */
  onForked: (kept: readonly number[]) => void;
}) {
  const { document } = useSyncExternalStore(editor.subscribe, editor.getState);
  return (
    <ComparePage
      stores={stores}
      template={document.template}
      problems={problems}
      onOpenRun={onOpenRun}
      onForked={onForked}
    />
  );
}

/**
 * The Compare page: the open scenario compared on `template`, its panel listing `problems` (the
 * open work's, as the Edit page lists them), the providers dialog over it while open.
 */
export function ComparePage({
  stores: { outcome, scenario, providers, comparison },
  template,
  problems,
  onOpenRun,
  onForked,
}: {
  stores: CompareStores;
  template: Template;
  problems: readonly ProblemGroup[];
  /** Opens a kept run on the History's timeline (a study's repetition). */
  onOpenRun?: (id: number) => void;
  /** Shows a fork beside its parent (the history's ids of its runs). */
  onForked?: (kept: readonly number[]) => void;
}) {
  const { scenario: open, revision } = useSyncExternalStore(scenario.subscribe, scenario.getState);
  const { profiles, providersOpen, profilesFailure } = useSyncExternalStore(providers.subscribe, providers.getState);
  const tools = useMemo(() => offeredTools(template), [template]);
  const params = useMemo(() => templateParams(template), [template]);

  useEffect(() => {
    void scenario.loadRecent();
    void providers.loadProfiles();
    // The prices change only when the user edits their prices file: read once, like the profiles.
    void comparison.loadPricedModels();
    void comparison.loadHostPresets();
  }, [scenario, providers, comparison]);

  return (
    <Deferred
      module={compareView}
      show={(view) => (
        <view.CompareView
          store={comparison}
          outcome={outcome}
          template={template}
          scenario={open}
          profiles={profiles}
          onProviders={() => void providers.openProviders()}
          onOpenRun={onOpenRun}
          onForked={onForked}
          scenarioActions={<ScenarioFileActions store={scenario} />}
          scenarioPanel={
            open !== null && (
              <ScenarioPanel
                view={open}
                tools={tools}
                params={params}
                revision={revision}
                problems={problems}
                onChange={(edited, group) => void scenario.edit(edited, group)}
              />
            )
          }
          noScenario={<ScenarioStart store={scenario} />}
          providersDialog={
            providersOpen ? (
              <ProvidersDialog
                profiles={profiles}
                failure={profilesFailure}
                onSave={(list) => void providers.saveProfiles(list)}
                onCancel={() => {
                  providers.closeProviders();
                }}
              />
            ) : null
          }
        />
      )}
    />
  );
}
