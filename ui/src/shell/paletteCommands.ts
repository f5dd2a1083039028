// Every command the command palette offers, read from the workspace as it stands when the palette
// opens: each keyboard shortcut's (titled and keyed by its line in SHORTCUT_HELP, done by
// shortcutCommand, so the palette and the keys never differ), the shortcut help, a skills folder to
// open as a template, the open template's exports and its comparison's, the examples and recent files to open, and "Go to section" for every section
// of the open template. A shortcut's command where its keys do nothing (Undo with nothing to undo)
// is listed, not available; the others are listed only where they apply.
import type { PaletteCommand } from "../palette/commands";
import { COMPARISON_EXPORTS, suiteCaseLabel } from "../compare/comparisonExports";
import { savedScenarioPath } from "../exports/store";
import { fileName } from "../shared/view";
import { shortcutCommand } from "./shortcutCommands";
import { SHORTCUT_HELP, shortcutAction, shortcutKeys } from "./shortcuts";
import type { WorkspaceStore } from "./workspace";

/** The palette's commands now; `showHelp` shows the keyboard shortcuts. */
export function paletteCommands(workspace: WorkspaceStore, showHelp: () => void): PaletteCommand[] {
  return [
    ...shortcutCommands(workspace),
    {
      id: "help",
      title: "Show the keyboard shortcuts",
      keys: shortcutKeys("help") ?? undefined,
      available: true,
      perform: showHelp,
    },
    {
      id: "open:skills",
      title: "Open a skills folder as a template…",
      available: true,
      perform: () => void workspace.openSkillsChosen(),
    },
    ...exportCommands(workspace),
    ...comparisonCommands(workspace),
    ...sectionCommands(workspace),
    ...exampleCommands(workspace),
    ...recentCommands(workspace),
  ];
}

/** A command for each line of the shortcut help that is a window's shortcut (not the tree's keys). */
function shortcutCommands(workspace: WorkspaceStore): PaletteCommand[] {
  return SHORTCUT_HELP.flatMap((line) => {
    const action = shortcutAction(line.press);
    if (action === null || action !== line.action) return [];
    const command = shortcutCommand(action, workspace);
    const perform = command?.changesSomething === true ? command.perform : null;
    return [{ id: action, title: line.does, keys: line.keys, available: perform !== null, perform: perform ?? noop }];
  });
}

function noop(): void {
  // A command not available is never performed.
}

/** The Export menu's items, while a template is open. */
function exportCommands(workspace: WorkspaceStore): PaletteCommand[] {
  const template = workspace.template;
  if (template === null) return [];
  const { exports } = template;
  return [
    {
      id: "export:promptfoo",
      title: "Export a promptfoo config…",
      available: true,
      perform: () => {
        exports.openPromptfoo(savedScenarioPath(workspace.compare.scenario.getState().scenario));
      },
    },
    {
      id: "export:langfuse",
      title: "Export a Langfuse prompt…",
      available: true,
      perform: () => void exports.exportLangfuse(),
    },
    {
      id: "export:skills",
      title: "Export an Agent Skills folder…",
      available: true,
      perform: () => void exports.exportSkills(),
    },
  ];
}

/**
 * The Compare page's Export menu, while a template is open: available once a comparison has
 * finished; the chart's only on the Compare page, where it is drawn.
 */
function comparisonCommands(workspace: WorkspaceStore): PaletteCommand[] {
  if (workspace.template === null) return [];
  const store = workspace.compare.comparison;
  const finished = store.getState().run?.status === "finished";
  const onCompare = workspace.getState().page === "compare";
  const command = (id: string, label: string, available: boolean, perform: () => Promise<void>): PaletteCommand => ({
    id: `comparison:${id}`,
    title: `Comparison: ${label}`,
    available,
    perform: () => void perform(),
  });
  const open = store.openSuite();
  return [
    ...COMPARISON_EXPORTS.map(({ id, label, drawsChart, perform }) =>
      command(id, label, finished && (onCompare || !drawsChart), () => perform(store)),
    ),
    ...(open === null
      ? []
      : [command("open-suite", suiteCaseLabel(fileName(open)), finished, () => store.addToSuite(open))]),
    command("suite", suiteCaseLabel(null), finished, () => store.addToSuite(null)),
  ];
}

/** "Go to section" for every section of the open template: the Edit page, with it selected. */
function sectionCommands(workspace: WorkspaceStore): PaletteCommand[] {
  const editor = workspace.editor;
  if (editor === null) return [];
  return editor.getState().rows.map((row) => ({
    id: `section:${row.path}`,
    title: `Go to section: ${row.title === "" ? row.key : row.title}`,
    detail: row.path,
    available: true,
    perform: () => {
      workspace.showPage("edit");
      editor.selectSection(row.path);
    },
  }));
}

/** The built-in examples, once the start page has read them. */
function exampleCommands(workspace: WorkspaceStore): PaletteCommand[] {
  return workspace.getState().examples.map((example) => ({
    id: `example:${example.template}`,
    title: `Open the example: ${example.name}`,
    available: true,
    perform: () => void workspace.openExample(example.template),
  }));
}

/** The recent files (one that is gone is listed, not available). */
function recentCommands(workspace: WorkspaceStore): PaletteCommand[] {
  return workspace.getState().recent.map((file) => ({
    id: `recent:${file.path}`,
    title: `Open recent: ${fileName(file.path)}`,
    detail: file.path,
    available: file.exists,
    perform: () => void workspace.openPath(file.path),
  }));
}
