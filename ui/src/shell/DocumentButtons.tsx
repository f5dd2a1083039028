// The header's Undo, Redo and Save: one set for every page, acting on the page's document (the
// template, or the scenario on the Compare page; pageDocument.ts decides), their tooltips saying which.
import { useSyncExternalStore } from "react";
import type { CompareStore } from "../compare/store";
import type { EditorShortcut } from "./shortcuts";
import type { EditorStore } from "../editor/store";
import { actOnPageDocument, pageDocument } from "./pageDocument";
import type { Page } from "./workspace";

const LABELS: Record<EditorShortcut, string> = { undo: "Undo", redo: "Redo", save: "Save" };

export function DocumentButtons({ page, editor, compare }: { page: Page; editor: EditorStore; compare: CompareStore }) {
  const { document } = useSyncExternalStore(editor.subscribe, editor.getState);
  const { scenario } = useSyncExternalStore(compare.subscribe, compare.getState);
  const { kind, buttons } = pageDocument(page, document, scenario);
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
          onClick={() => void actOnPageDocument(action, kind, { template: editor, scenario: compare })}
        >
          {LABELS[action]}
        </button>
      ))}
    </>
  );
}
