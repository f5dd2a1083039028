// The header's Undo, Redo and Save: one set for every page, acting on the page's document (the
// template, or the scenario on the Compare page; pageDocument.ts decides), their tooltips saying which.
import { useSyncExternalStore } from "react";
import type { EditorShortcut } from "./shortcuts";
import type { EditorStore } from "../editor/store";
import type { ScenarioStore } from "../scenario/store";
import { actOnPageDocument, pageDocument } from "./pageDocument";
import type { Page } from "./workspace";

const LABELS: Record<EditorShortcut, string> = { undo: "Undo", redo: "Redo", save: "Save" };

export function DocumentButtons({
  page,
  editor,
  scenario,
}: {
  page: Page;
  editor: EditorStore;
  scenario: ScenarioStore;
}) {
  const { document } = useSyncExternalStore(editor.subscribe, editor.getState);
  const open = useSyncExternalStore(scenario.subscribe, scenario.getState).scenario;
  const { kind, buttons } = pageDocument(page, document, open);
  return (
    <>
      {(["undo", "redo", "save"] as const).map((action) => (
        <button
          key={action}
          type="button"
          data-testid={`${action}-button`}
          data-document={kind}
          title={buttons[action].title}
          disabled={!buttons[action].enabled}
          onClick={() => void actOnPageDocument(action, kind, { template: editor, scenario })}
        >
          {LABELS[action]}
        </button>
      ))}
    </>
  );
}
