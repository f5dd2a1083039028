// Test-only: a template opened over the fake backend as the window opens one (its editor, and the
// sources and exports that follow it); its Edit page as the window shows it, Sources tab included,
// on a tab of its own; and the whole window on the launch template, for a test that uses the header
// too (Undo, Redo, Save): for the tests of the editor, the Sources tab and the exports.
import { act, useState } from "react";
import type { Root } from "react-dom/client";
import { useWorkProblems, type EditTab } from "../editor/EditPage";
import { App } from "../shell/App";
import { TemplateEditPage } from "../shell/pages";
import { templateStores, WorkspaceStore, type TemplateStores } from "../shell/workspace";
import { settle } from "./dom";
import type { FakePlatform } from "./fakePlatform";

/** The editor's store, for a test outside editor/. */
export type EditorStore = TemplateStores["editor"];

/** `platform`'s template opened. */
export function openTemplate(platform: FakePlatform): TemplateStores {
  return templateStores(platform, platform.view());
}

/** The Edit page of `template`, listing the template's problems (no scenario is open). */
export function EditPageOf({ template }: { template: TemplateStores }) {
  const [tab, setTab] = useState<EditTab>("section");
  const problems = useWorkProblems(template.editor, null);
  return <TemplateEditPage template={template} problems={problems} tab={tab} onTab={setTab} />;
}

/** `platform`'s template opened and its Edit page drawn into `root`, settled; its editor. */
export async function renderEditPage(root: Root, platform: FakePlatform): Promise<EditorStore> {
  const stores = openTemplate(platform);
  await act(async () => {
    root.render(<EditPageOf template={stores} />);
    await Promise.resolve();
  });
  await settle();
  return stores.editor;
}

/** The window over `platform`, drawn into `root` as the app starts it (its workspace its own), settled. */
export async function renderApp(root: Root, platform: FakePlatform): Promise<void> {
  await act(async () => {
    root.render(<App platform={platform} />);
    await Promise.resolve();
  });
  await settle();
}

/** The window over `platform`'s launch template, drawn into `root` on its Edit page; the template's stores. */
export async function renderWindow(root: Root, platform: FakePlatform): Promise<TemplateStores> {
  const workspace = new WorkspaceStore(platform);
  await workspace.start();
  const { template } = workspace;
  if (template === null) throw new Error("the launch template did not open");
  await act(async () => {
    root.render(<App platform={platform} workspace={workspace} />);
    await Promise.resolve();
  });
  return template;
}
