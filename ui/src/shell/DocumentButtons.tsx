// The header's Undo, Redo and Save (the Edit page's primary action): one set for every page, acting on the page's document (the
// template, or the scenario on the Compare page; pageDocument.ts decides), their tooltips saying which.
import { Redo2, Save, Undo2, type LucideIcon } from "lucide-react";
import { useSyncExternalStore } from "react";
import type { EditorShortcut } from "./shortcuts";
import type { EditorStore } from "../editor/store";
import type { ScenarioStore } from "../scenario/store";
import { actOnPageDocument, pageDocument } from "./pageDocument";
import type { Page } from "./workspace";

const LABELS: Record<EditorShortcut, string> = { undo: "Undo", redo: "Redo", save: "Save" };
const ICONS: Record<EditorShortcut, LucideIcon> = { undo: Undo2, redo: Redo2, save: Save };

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
      {(["undo", "redo", "save"] as const).map((action) => {
        const Icon = ICONS[action];
        return (
          <button
            key={action}
            type="button"
            // Save is the Edit page's one main action (Run is the Compare page's).
            className={action === "save" && page === "edit" ? "primary" : undefined}
            data-testid={`${action}-button`}
            data-document={kind}
            title={buttons[action].title}
            disabled={!buttons[action].enabled}
            onClick={() => void actOnPageDocument(action, kind, { template: editor, scenario })}
          >
            <Icon aria-hidden="true" />
            {LABELS[action]}
          </button>
        );
      })}
    </>
  );
}
