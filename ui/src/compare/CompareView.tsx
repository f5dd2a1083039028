// The compare view: its toolbar (the scenario's file actions it is given, the model a comparison
// asks (the script, or a provider profile's real model, with what a live run does and a warning when
// its key is not set) and the adapters it runs under (any of the four, dynamic and restart ticked
// until changed), the model a scripted one is priced as, and the providers dialog's button, the
// relay session a template's relay sources take their tools from, Run and Cancel, the exports), the
// question Run asks first about the template's sources not allowed (RunSourcesDialog), the page's
// failure (what was done is a toast: shared/ToastRegion.tsx), then the scenario panel it is given
// beside the comparison, resized or hidden by the separator between them (shared/SplitPanes.tsx)
// and kept so (run status, the
// verdict, first divergences, counters, prompt-token chart, timeline) and the picked event's detail, under the
// lanes (beside them in a window wide enough to leave them their width; see compare.css), closed by
// its button or Escape with the focus back on the picked event; what it is given to start a
// scenario while none is open. The scenario's Save, Undo and Redo are the header's
// (shell/pageDocument.ts): one set per page. The comparison's state and actions live in
// ComparisonStore; the scenario, the profiles and their dialog are the shell's to give (shell/pages.tsx).
//
// data-testids besides the components' own (the e2e test measures the layout by them):
//   comparison-model, adapter-<adapter>,            the model picker, the adapters a comparison
//     price-as-picker, providers-button               runs under (scripted or live), the model a
//                                                     scripted run is priced as (while the prices
//                                                     know some), the providers dialog's button
//   host-picker, host-<name>                        the picker that adds a host lane, and each host
//                                                     lane chosen (a ticked box that takes it out)
//   relay-session-picker                            the relay session a run attaches to (a template
//                                                     with a relay source, while the relay has sessions)
//   run-comparison, cancel-comparison,              Run (Ctrl+Enter), Cancel, and the Export menu
//     export-report-menu (export-report-button), export-markdown, export-report,
//     export-requests (data-api: the API whose shape the request bodies take)
//   compare-results, event-detail-panel             the comparison's pane, and the detail's pane
//   counters-box                                    the counters table's own scroll box
import { PanelLeft, Play, Server } from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from "react";
import type {
  AdapterKind,
  HostProfile,
  HostView,
  ProfilesView,
  RequestShape,
  ScenarioView,
  Template,
} from "../platform";
import { hostLane, realHostLane } from "../platform/lanes";
import { CountersTable } from "../runs/CountersTable";
import { escapeClosesDetail } from "../runs/detail";
import { EventDetail } from "../runs/EventDetail";
import { ForkDialog } from "../runs/ForkDialog";
import { childPath } from "../shared/template";
import { DivergenceLine, RunStatus } from "./RunStatus";
import { VerdictPanel } from "./VerdictPanel";
import { COMPARISON_EXPORTS, suiteCaseLabel } from "./comparisonExports";
import { useComparisonDrawnMark } from "./comparisonDrawnMark";
import { startableHosts } from "../shared/hostConsent";
import { RunHostsDialog } from "../shared/RunHostsDialog";
import { RunSourcesDialog } from "./RunSourcesDialog";
import {
  chosenProfile,
  type ChosenProfile,
  type ComparisonContext,
  type ComparisonSetup,
  type ComparisonStore,
  forkModelOf,
  hasRelaySource,
  liveModel,
  notRunnable,
  priceAsOf,
  ranOnOthers,
  REQUEST_SHAPES,
  scriptedModel,
  withAdapter,
  withHost,
  withRealHost,
} from "./store";
import { discards, laneViews } from "../runs/timeline";
import { Timeline } from "../runs/Timeline";
import { TokenChart } from "../runs/TokenChart";
import { fileName } from "../shared/view";
import { chartPicture } from "../runs/chartImage";
import { ADAPTER_TITLES, adaptersText, laneName, refreshText } from "../shared/words";
import "./compare.css";
import { StudyView } from "../studies/StudyView";
import { MAX_REPEAT, type StudyState, type StudyStore } from "../studies/store";
import "../studies/studies.css";
import type { OutcomeStore } from "../shared/outcome";
import { ProblemItems } from "../shared/ProblemItems";
import { useDoneToast } from "../shared/ToastRegion";
import { DropDownMenu } from "../shared/DropDownMenu";
import { toggledCollapse, type SplitSpec } from "../shared/paneLayout";
import { SplitPanes, useStoredPaneLayout } from "../shared/SplitPanes";
import { ADAPTERS, callIndexOf, type PickedEvent } from "../runs/run";

/** The scenario panel beside the comparison, which takes the rest of the width. */
export const COMPARE_SPLIT: SplitSpec = {
  storageKey: "unfold.panes.compare",
  panes: [{ id: "scenario", name: "scenario panel", side: "before", min: 220, initial: 320 }],
  flexMin: 480,
};

/** The comparison of `scenario` on `template` with `profiles`; `outcome` is the page's. */
export function CompareView({
  store,
  outcome,
  template,
  scenario,
  profiles,
  onProviders,
  scenarioActions,
  scenarioPanel,
  noScenario,
  providersDialog,
  onOpenRun = () => undefined,
  onForked = () => undefined,
}: {
  store: ComparisonStore;
  outcome: OutcomeStore;
  template: Template;
  /** The open scenario (null: none). */
  scenario: ScenarioView | null;
  /** The provider profiles as last read (null until read). */
  profiles: ProfilesView | null;
  /** Opens the providers dialog. */
  onProviders: () => void;
  /** The scenario's file actions, in the toolbar. */
  scenarioActions: ReactNode;
  /** The scenario panel, beside the comparison while a scenario is open. */
  scenarioPanel: ReactNode;
  /** What starts a scenario, while none is open. */
  noScenario: ReactNode;
  /** The providers dialog while it is open (Escape is then the dialog's), else null. */
  providersDialog: ReactNode;
  /** Opens the kept run `id` on the History's timeline (a study's repetition). */
  onOpenRun?: (id: number) => void;
  /** Shows a fork that ran: the history's ids of its runs. */
  onForked?: (kept: readonly number[]) => void;
}) {
  const state: ComparisonContext = { ...useSyncExternalStore(store.subscribe, store.getState), scenario, profiles };
  const study = useSyncExternalStore(store.study.subscribe, store.study.getState);
  // The scenario panel is resized, or folded away to give the lanes the width; kept per page.
  const [layout, onLayout] = useStoredPaneLayout(COMPARE_SPLIT);
  const scenarioShown = layout.collapsed.scenario !== true;

  // The relay session picker is offered only for a template with a relay source. Its sessions are
  // read again whenever the window gets the focus back: a plugin is started elsewhere.
  const hasRelay = hasRelaySource(template);
  useEffect(() => {
    if (!hasRelay) return;
    const load = () => void store.loadRelay();
    load();
    window.addEventListener("focus", load);
    return () => {
      window.removeEventListener("focus", load);
    };
  }, [store, hasRelay]);

  const view = useRef<HTMLDivElement>(null);
  useComparisonDrawnMark(state.run?.id ?? null, state.run?.status === "finished");
  // The Export menu and the command palette save the chart as this page draws it.
  useEffect(
    () =>
      store.drawsChart(() => {
        const figure = view.current?.querySelector<HTMLElement>('[data-testid="token-chart"]');
        return figure == null ? null : chartPicture(figure);
      }),
    [store],
  );
  // The event whose button gets the focus back once the detail has closed.
  const returnFocusTo = useRef<PickedEvent | null>(null);
  const closeDetail = useCallback(() => {
    returnFocusTo.current = store.getState().picked;
    store.unpick();
  }, [store]);

  const { picked } = state;
  const providersOpen = providersDialog !== null;
  // Escape closes the detail unless a dialog, a field or another part of the page has the key.
  useEffect(() => {
    if (picked === null || providersOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (view.current === null || !escapeClosesDetail(event, view.current)) return;
      event.preventDefault();
      closeDetail();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => {
      window.removeEventListener("keydown", onKeyDown);
    };
  }, [picked, providersOpen, closeDetail]);

  // Keyboard users keep their place: the focus goes back to the picked event when the detail closes,
  // and the event stays in view when the detail opens under the lanes (their pane gets shorter).
  useLayoutEffect(() => {
    if (view.current === null) return;
    if (picked !== null) {
      eventButton(view.current, picked)?.scrollIntoView({ block: "nearest" });
      return;
    }
    const place = returnFocusTo.current;
    returnFocusTo.current = null;
    if (place !== null) eventButton(view.current, place)?.focus();
  }, [picked]);

  return (
    <div className="compare-view" data-testid="compare-view" ref={view}>
      <CompareToolbar
        store={store}
        state={state}
        study={study}
        scenarioActions={scenarioActions}
        onProviders={onProviders}
        scenarioShown={scenarioShown}
        onScenarioShown={() => {
          onLayout((now) => toggledCollapse(now, "scenario"));
        }}
        hasRelay={hasRelay}
      />
      <LiveNote state={state} />
      <CompareNotices outcome={outcome} />
      {scenario === null ? (
        <EmptyState model={state.model}>{noScenario}</EmptyState>
      ) : (
        <SplitPanes split={COMPARE_SPLIT} layout={layout} onLayout={onLayout} className="compare-panes">
          <aside className="pane compare-scenario">{scenarioPanel}</aside>
          {/* The detail opens once an event is picked, so the lanes have the room until then. */}
          <div className="compare-main">
            <div className={picked === null ? "compare-main-grid" : "compare-main-grid with-detail"}>
              {state.run === null && study.phase !== "none" ? (
                <section className="pane compare-results" data-testid="compare-results" aria-label="Study">
                  <StudyView state={study} onCancel={() => void store.study.cancel()} onOpenRun={onOpenRun} />
                </section>
              ) : (
                <Results store={store} state={state} template={template} onCloseDetail={closeDetail} />
              )}
            </div>
          </div>
        </SplitPanes>
      )}
      {providersDialog}
      {state.fork !== null && state.run !== null && (
        <ForkDialog
          lane={state.fork.lane}
          seq={state.fork.seq}
          events={state.run.events[state.fork.lane] ?? []}
          lanes={state.run.lanes.filter((lane) => lane !== "baseline")}
          sections={summarizedSections(template)}
          model={forkModelOf(state)}
          busy={state.fork.busy}
          failure={state.fork.failure}
          onRun={(choice) =>
            void store.runFork(choice).then((answer) => {
              if (answer !== null) onForked(answer.kept.filter((id) => id !== null));
            })
          }
          onCancel={() => {
            store.closeFork();
          }}
        />
      )}
      {state.hostsQuestion !== null && (
        <RunHostsDialog
          question={state.hostsQuestion}
          onAllow={() => void store.allowHostsAndRun()}
          onCancel={() => {
            store.cancelHostsQuestion();
          }}
        />
      )}
      {state.sourcesQuestion !== null && (
        <RunSourcesDialog
          question={state.sourcesQuestion}
          onAllow={() => void store.allowSourcesAndRun()}
          onSnapshots={() => void store.runWithSnapshots()}
          onCancel={() => {
            store.cancelSourcesQuestion();
          }}
        />
      )}
    </div>
  );
}

/** The timeline's button of the event `place` (hidden with the baseline lane: none). */
function eventButton(view: HTMLElement, place: PickedEvent): HTMLButtonElement | null {
  return view.querySelector<HTMLButtonElement>(
    `button[data-lane="${place.lane}"][data-seq="${String(place.event.seq)}"]`,
  );
}

/** The lanes of a scripted comparison in words: "the dynamic and restart adapters, run real:openai-agents against it,". */
function scriptedLanesText(model: ComparisonSetup): string {
  const real = model.realHosts.map(realHostLane);
  const hosts = real.length === 0 ? "" : `, run ${real.join(", ")} against it,`;
  return `${adaptersText(model.adapters, model.hosts)}${hosts}`;
}

/** What Run will run, for its title. */
export function runTitle(model: ComparisonSetup, chosen: ChosenProfile | null): string {
  const adapters = adaptersText(model.adapters, model.hosts);
  if (model.kind === "scripted")
    return `Replay the scenario under ${scriptedLanesText(model)} and the all-FULL baseline`;
  const to = chosen === null ? model.profile : `${chosen.profile.model} (${chosen.profile.name})`;
  return `Send the scenario's user message to ${to} under ${adapters}; the script and the baseline are not used`;
}

/** The model picker's value for `model`. */
function modelValue(model: ComparisonSetup): string {
  return model.kind === "scripted" ? "scripted" : `live:${model.profile}`;
}

/** The model a comparison asks, the adapters it runs under, and the providers dialog's button. */
function ModelPicker({
  store,
  state,
  onProviders,
}: {
  store: ComparisonStore;
  state: ComparisonContext;
  onProviders: () => void;
}) {
  const { model } = state;
  const profiles = state.profiles?.profiles ?? [];
  // A live model whose profile was renamed or removed stays chosen (Run says why it cannot run).
  const gone =
    model.kind === "live" && !profiles.some((profile) => profile.name === model.profile) ? model.profile : null;
  const tick = (adapter: AdapterKind, on: boolean) => {
    store.setModel(withAdapter(model, adapter, on));
  };
  const choices = [
    { value: "scripted", label: "Scripted (the scenario's script)" },
    ...profiles.map((profile) => ({ value: `live:${profile.name}`, label: `${profile.name} · ${profile.model}` })),
    ...(gone === null ? [] : [{ value: `live:${gone}`, label: `${gone} · no such profile` }]),
  ];
  const value = modelValue(model);
  return (
    <div className="compare-group model-picker" role="group" aria-label="Model">
      <label>
        Model{" "}
        <select
          data-testid="comparison-model"
          value={value}
          // A long model name is cut short in the narrow toolbar: the tooltip has it whole.
          title={choices.find((choice) => choice.value === value)?.label}
          onChange={(event) => {
            const picked = event.target.value;
            store.setModel(
              picked.startsWith("live:") ? liveModel(picked.slice("live:".length), model) : scriptedModel(model),
            );
          }}
        >
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {/* A live run is priced as its own model: the choice is the script's only. */}
      {model.kind === "scripted" && state.pricedModels.length > 0 && <PriceAsPicker store={store} state={state} />}
      {ADAPTERS.map((adapter) => (
        <label key={adapter} className="check" title={ADAPTER_TITLES[adapter]}>
          <input
            type="checkbox"
            data-testid={`adapter-${adapter}`}
            checked={model.adapters.includes(adapter)}
            onChange={(event) => {
              tick(adapter, event.target.checked);
            }}
          />{" "}
          {laneName(adapter)}
        </label>
      ))}
      <HostLanes store={store} model={model} presets={state.hostPresets} />
      <RealHostLanes store={store} model={model} hosts={state.realHosts} />
      <button
        type="button"
        data-testid="providers-button"
        className="icon-only"
        aria-label="Providers…"
        title="Providers: edit the provider profiles live runs use"
        onClick={onProviders}
      >
        <Server aria-hidden="true" />
      </button>
    </div>
  );
}

/**
 * The model a scripted comparison's runs are priced as (the script has no price of its own): the
 * prices' default model unless another is chosen.
 */
function PriceAsPicker({ store, state }: { store: ComparisonStore; state: ComparisonContext }) {
  const chosen = priceAsOf(state);
  return (
    <label
      className="price-as"
      title="Price every run as if this model had answered it (prices: Unfold's, overridden by your prices.json)"
    >
      Price as{" "}
      <select
        data-testid="price-as-picker"
        value={chosen ?? ""}
        onChange={(event) => {
          store.setPriceAs(event.target.value === "" ? null : event.target.value);
        }}
      >
        <option value="">{state.defaultModel === null ? "No price" : `${state.defaultModel} (default)`}</option>
        {state.pricedModels.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A host preset as its picker's tooltip says it: the host, when it shows new tools, and why we think so. */
function hostTitle(preset: HostProfile): string {
  const version = preset.version === undefined ? "" : ` ${preset.version}`;
  const [evidence] = preset.evidence;
  const why =
    evidence === undefined
      ? ""
      : ` (${"note" in evidence ? evidence.note : `measured in ${String(evidence.runs)} runs`})`;
  return `${preset.host}${version}: shows a tool revealed mid-conversation ${refreshText(preset.refresh)}${why}`;
}

/** One choice a lane picker offers: its name, its words in the list, its tooltip. */
interface LaneOption {
  name: string;
  text: string;
  title?: string;
}

/**
 * Lanes added by name: each chosen one a ticked box that takes it out (`${testId}-NAME`), then a
 * picker (`${testId}-picker`) of the options not chosen yet, when there are any.
 */
function AddedLanes({
  chosen,
  options,
  testId,
  laneOf,
  boxTitle,
  picker,
  onChoose,
}: {
  chosen: readonly string[];
  options: readonly LaneOption[];
  testId: string;
  laneOf: (name: string) => string;
  boxTitle: (name: string) => string | undefined;
  picker: { label: string; title: string; prompt: string };
  onChoose: (name: string, on: boolean) => void;
}) {
  const addable = options.filter((option) => !chosen.includes(option.name));
  return (
    <>
      {chosen.map((name) => (
        <label key={name} className="check" title={boxTitle(name)}>
          <input
            type="checkbox"
            data-testid={`${testId}-${name}`}
            checked
            onChange={() => {
              onChoose(name, false);
            }}
          />{" "}
          {laneOf(name)}
        </label>
      ))}
      {addable.length > 0 && (
        <select
          data-testid={`${testId}-picker`}
          aria-label={picker.label}
          title={picker.title}
          value=""
          onChange={(event) => {
            if (event.target.value !== "") onChoose(event.target.value, true);
          }}
        >
          <option value="">{picker.prompt}</option>
          {addable.map((option) => (
            <option key={option.name} value={option.name} title={option.title}>
              {option.text}
            </option>
          ))}
        </select>
      )}
    </>
  );
}

/**
 * The host lanes chosen, each a ticked box that takes it out, and a picker that adds one of the
 * presets: the scenario run as that agent host shows new tools (spec 12).
 */
function HostLanes({
  store,
  model,
  presets,
}: {
  store: ComparisonStore;
  model: ComparisonSetup;
  presets: HostProfile[];
}) {
  const options = presets.map((preset) => ({
    name: preset.name,
    text: `${preset.name} · ${refreshText(preset.refresh)}`,
    title: hostTitle(preset),
  }));
  return (
    <AddedLanes
      chosen={model.hosts}
      options={options}
      testId="host"
      laneOf={hostLane}
      boxTitle={(name) => options.find((option) => option.name === name)?.title}
      picker={{
        label: "Add a host lane",
        title:
          "Add a lane that runs the scenario as an agent host does: when it first shows the model a tool revealed mid-conversation",
        prompt: "Add a host…",
      }}
      onChoose={(name, on) => {
        store.setModel(withHost(model, name, on));
      }}
    />
  );
}

/**
 * The real agent hosts of the comparison (the host lab: each runs as a program against the template
 * and the script), and a picker of the installed ones not in it yet, with their versions.
 */
function RealHostLanes({ store, model, hosts }: { store: ComparisonStore; model: ComparisonSetup; hosts: HostView[] }) {
  const installed = startableHosts(hosts);
  const options = installed.map((host) => ({
    name: host.name,
    text: `${host.name} ${host.version ?? ""}`.trim(),
    title: host.program ?? undefined,
  }));
  return (
    <AddedLanes
      chosen={model.realHosts}
      options={options}
      testId="real-host"
      laneOf={realHostLane}
      boxTitle={() => "A real agent host, run against the template served over MCP"}
      picker={{
        label: "Add a real host lane",
        title:
          "Add a lane that runs a real agent host against the template served over MCP and the scenario's script (with a live model, against that model)",
        prompt: "Run a real host…",
      }}
      onChoose={(name, on) => {
        store.setModel(withRealHost(model, name, on));
      }}
    />
  );
}

/** The session of the app's relay the template's relay sources take their tools from, or none. */
function RelaySessionPicker({ store, state }: { store: ComparisonStore; state: ComparisonContext }) {
  const chosen = state.relaySessions.some((session) => session.code === state.relaySession) ? state.relaySession : null;
  return (
    <div className="compare-group" role="group" aria-label="Relay session">
      <label title="The relay session whose tools the template's relay sources take (none: their snapshots)">
        Relay{" "}
        <select
          data-testid="relay-session-picker"
          value={chosen ?? ""}
          onChange={(event) => {
            store.setRelaySession(event.target.value === "" ? null : event.target.value);
          }}
        >
          <option value="">No relay session</option>
          {state.relaySessions.map((session) => (
            <option key={session.code} value={session.code}>
              {`${session.code} · ${session.plugin_type ?? "no plugin yet"}${session.expired ? " (expired)" : ""}`}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** While a live model is chosen: what a live run does, and why it would fail when its key is not set. */
function LiveNote({ state }: { state: ComparisonContext }) {
  const { model } = state;
  if (model.kind === "scripted") return null;
  const chosen = chosenProfile(state);
  const variable = chosen?.profile.api_key_env ?? "";
  return (
    <div className="live-note" data-testid="live-note">
      <p>
        {chosen === null
          ? `The provider profile '${model.profile}' no longer exists: choose another model, or add it under Providers…`
          : `A live run sends the scenario's user message to ${chosen.profile.model} at ${chosen.profile.base_url} and does not use the script; the all-FULL baseline is not run; a real host's requests go to the model too. Its runs are priced as ${chosen.profile.model} when the prices know it.`}
      </p>
      {chosen !== null && !chosen.keySet && (
        <p className="live-warning" role="alert" data-testid="live-key-missing">
          {chosen.profile.api_key_keychain === true ? (
            <>
              The OS keychain holds no key for {chosen.profile.name}: the run would fail. Store one with{" "}
              <code>unfold key set {chosen.profile.name}</code>.
            </>
          ) : (
            <>
              The environment variable <code>{variable}</code> that {chosen.profile.name}&apos;s key comes from is not
              set: the run would fail. Set it where Unfold is started, then start Unfold again.
            </>
          )}
        </p>
      )}
    </div>
  );
}

function CompareToolbar({
  store,
  state,
  study,
  scenarioActions,
  onProviders,
  scenarioShown,
  onScenarioShown,
  hasRelay,
}: {
  store: ComparisonStore;
  state: ComparisonContext;
  study: StudyState;
  scenarioActions: ReactNode;
  onProviders: () => void;
  scenarioShown: boolean;
  /** Shows or hides the scenario panel. */
  onScenarioShown: () => void;
  /** The template has a relay source. */
  hasRelay: boolean;
}) {
  const { scenario, run } = state;
  const running = run?.status === "running";
  const finished = run?.status === "finished";
  const whyNot = study.phase === "running" ? "A study is running" : notRunnable(state);
  const exportTitle = (what: string) => (finished ? what : `${what} (once a comparison has finished)`);
  return (
    <div className="toolbar compare-toolbar">
      <div className="compare-group" role="group" aria-label="Scenario">
        {scenarioActions}
        {scenario !== null && (
          <button
            type="button"
            className="icon-only"
            aria-pressed={scenarioShown}
            aria-label="Scenario panel"
            title="Show or hide the scenario panel"
            onClick={onScenarioShown}
          >
            <PanelLeft aria-hidden="true" />
          </button>
        )}
      </div>
      <ModelPicker store={store} state={state} onProviders={onProviders} />
      {hasRelay && state.relaySessions.length > 0 && <RelaySessionPicker store={store} state={state} />}
      <div className="compare-group compare-actions" role="group" aria-label="Comparison">
        <button
          type="button"
          data-testid="run-comparison"
          className="primary"
          disabled={whyNot !== null}
          title={
            whyNot ??
            `${runTitle(state.model, chosenProfile(state))}${study.repeat > 1 ? `, ${study.repeat} times as a study` : ""} (Ctrl+Enter)`
          }
          onClick={() => void store.run()}
        >
          <Play aria-hidden="true" />
          {study.repeat > 1 ? `Run ×${study.repeat}` : "Run"}
        </button>
        <StudyControls store={store.study} study={study} />
        {running && (
          <button type="button" data-testid="cancel-comparison" onClick={() => void store.cancel()}>
            Cancel
          </button>
        )}
        <DropDownMenu
          className="file-menu-fold export-report-menu"
          testId="export-report-menu"
          label="Export"
          buttonTestId="export-report-button"
          title={exportTitle(
            "Write the comparison as Markdown for a pull request, its chart as an image, its whole report as JSON, or its request bodies",
          )}
          menu
        >
          {COMPARISON_EXPORTS.map(({ id, label, title, perform }) => (
            <button
              key={id}
              type="button"
              role="menuitem"
              data-testid={`export-${id}`}
              disabled={!finished}
              title={exportTitle(title)}
              onClick={() => void perform(store)}
            >
              {label}
            </button>
          ))}
          <ExportRequests store={store} finished={finished} title={exportTitle} />
          <SuiteCaseItems store={store} finished={finished} title={exportTitle} />
        </DropDownMenu>
      </div>
    </div>
  );
}

/** How many times Run runs the comparison (more than once: a study), and its A/A control. */
function StudyControls({ store, study }: { store: StudyStore; study: StudyState }) {
  const running = study.phase === "running";
  return (
    <>
      <label
        className="study-repeat"
        title="Run the comparison this many times as a study, with intervals and verdicts"
      >
        Repeat{" "}
        <input
          type="number"
          data-testid="study-repeat"
          min={1}
          max={MAX_REPEAT}
          value={study.repeat}
          disabled={running}
          onChange={(event) => {
            store.setRepeat(Number(event.target.value));
          }}
        />
      </label>
      {study.repeat > 1 && (
        <label
          className="study-aa-toggle"
          title="Run the first lane once more per repetition: the noise a difference must beat"
        >
          <input
            type="checkbox"
            data-testid="study-aa-toggle"
            checked={study.aa}
            disabled={running}
            onChange={(event) => {
              store.setAa(event.target.checked);
            }}
          />{" "}
          A/A control
        </label>
      )}
    </>
  );
}

/** What the Export menu's groups of items are given: the store, whether it ran, their titles' wording. */
interface ExportItemsProps {
  store: ComparisonStore;
  finished: boolean;
  /** A title, saying when the item is not available yet. */
  title: (what: string) => string;
}

/**
 * The Export menu's items that keep the comparison as a suite case expecting what its runs
 * showed: in the suite open on the Suites page, or in a suite file the user chooses.
 */
function SuiteCaseItems({ store, finished, title }: ExportItemsProps) {
  const open = store.openSuite();
  const problem = finished ? store.suiteCaseProblem() : null;
  const why = (what: string) => problem ?? title(what);
  return (
    <>
      {open !== null && (
        <button
          type="button"
          role="menuitem"
          data-testid="add-to-open-suite"
          disabled={!finished}
          title={why(`A case in ${open} that expects what these runs showed`)}
          onClick={() => void store.addToSuite(open)}
        >
          {suiteCaseLabel(fileName(open))}
        </button>
      )}
      <button
        type="button"
        role="menuitem"
        data-testid="add-to-suite"
        disabled={!finished}
        title={why("A case, in a new suite file or one you have, that expects what these runs showed")}
        onClick={() => void store.addToSuite(null)}
      >
        {suiteCaseLabel(null)}
      </button>
    </>
  );
}

/** The Export menu's request bodies: one item per API whose shape they take, each asking for a folder. */
function ExportRequests({ store, finished, title }: ExportItemsProps) {
  return (
    <>
      {(Object.keys(REQUEST_SHAPES) as RequestShape[]).map((api) => (
        <button
          key={api}
          type="button"
          role="menuitem"
          data-testid="export-requests"
          data-api={api}
          disabled={!finished}
          title={title(
            `Write every model call's request body, as ${REQUEST_SHAPES[api]} takes it, into a new or empty folder`,
          )}
          onClick={() => void store.exportRequests(api)}
        >
          Request bodies, {REQUEST_SHAPES[api]}…
        </button>
      ))}
    </>
  );
}

/** Why the last action was not done; what the last export wrote, as a toast. */
function CompareNotices({ outcome }: { outcome: OutcomeStore }) {
  const { failure, notice } = useSyncExternalStore(outcome.subscribe, outcome.getState);
  useDoneToast(notice, "compare-notice", () => {
    outcome.forgetNotice();
  });
  if (failure === null) return null;
  return (
    <div className="error failure" role="alert" data-testid="compare-failure">
      <strong>{failure.title}</strong>
      <span>{failure.detail}</span>
      {failure.problems.length > 0 && (
        <ProblemItems problems={failure.problems} whole="scenario" testId="compare-failure-problems" />
      )}
      <button
        type="button"
        onClick={() => {
          outcome.dismiss();
        }}
      >
        Dismiss
      </button>
    </div>
  );
}

/** While no scenario is open: what a scenario is and what running it does, then `children` to start one. */
function EmptyState({ model, children }: { model: ComparisonSetup; children: ReactNode }) {
  return (
    <section className="compare-empty" aria-label="No scenario">
      <h2>No scenario is open</h2>
      <p>
        A scenario scripts one conversation: the user&apos;s message, the model&apos;s tool calls and its final answer.
        Running it replays it under {adaptersText(model.adapters, model.hosts)}, and once more with every section FULL,
        and shows where and at what price they differ.
      </p>
      {children}
    </section>
  );
}

/** The comparison's side of the view: nothing run yet, or the run as far as it got, and the picked event. */
function Results({
  store,
  state,
  template,
  onCloseDetail,
}: {
  store: ComparisonStore;
  state: ComparisonContext;
  template: Template;
  onCloseDetail: () => void;
}) {
  const { run, picked, scenario } = state;
  const outOfDate = useMemo(
    () => run !== null && ranOnOthers(run, scenario?.scenario ?? null, template),
    [run, scenario, template],
  );
  if (run === null) {
    return (
      <section className="pane compare-results" data-testid="compare-results" aria-label="Comparison">
        <p className="notice">
          {state.model.kind === "scripted"
            ? `Not run yet. Run replays the scenario under ${scriptedLanesText(state.model)} and the all-FULL baseline; the lanes fill in as the events arrive.`
            : "Not run yet. Run sends the scenario's user message to the live model under the adapters ticked; the lanes fill in as the events arrive."}
        </p>
      </section>
    );
  }
  const views = laneViews(run.events);
  return (
    <>
      <section className="pane compare-results" data-testid="compare-results" aria-label="Comparison">
        <RunStatus run={run} outOfDate={outOfDate} />
        {run.report?.verdict != null && <VerdictPanel verdict={run.report.verdict} />}
        {run.report !== null && <DivergenceLine report={run.report} />}
        <div className="compare-figures">
          {run.report !== null && (
            <div className="counters-box" data-testid="counters-box">
              <CountersTable report={run.report} />
            </div>
          )}
          <TokenChart views={views} report={run.report} />
        </div>
        <Timeline run={run} views={views} picked={picked} onPick={(lane, event) => void store.pick(lane, event)} />
      </section>
      {picked !== null && (
        <aside className="pane compare-detail" data-testid="event-detail-panel">
          <EventDetail
            picked={picked}
            callIndex={callIndexOf(picked.event, run.events[picked.lane] ?? [])}
            discard={discards(run.events[picked.lane] ?? []).get(picked.event.seq) ?? null}
            finished={run.report !== null}
            detail={state.detail}
            diff={{
              lanes: run.lanes,
              target: state.diffTarget,
              onChange: (target) => void store.setDiffTarget(target),
            }}
            onClose={onCloseDetail}
            actions={
              run.status === "finished" &&
              picked.lane !== "baseline" && (
                <button
                  type="button"
                  data-testid="fork-from-here"
                  title="Run the lanes again from this event, with a change: the events before it stay as recorded"
                  onClick={() => {
                    store.openFork(picked.lane, picked.event.seq);
                  }}
                >
                  Fork from here
                </button>
              )
            }
          />
        </aside>
      )}
    </>
  );
}

/** The paths of `template`'s summarized sections: what a fork may have the model read. */
function summarizedSections(template: Template): string[] {
  const paths: string[] = [];
  const walk = (sections: readonly Template["sections"][number][], parent: string | null) => {
    for (const section of sections) {
      const path = childPath(parent, section.key);
      if (section.visibility === "summary") paths.push(path);
      walk(section.children, path);
    }
  };
  walk(template.sections, null);
  return paths;
}
