// The Export menu for the open template, among the header's file actions (so it folds into the File
// menu in a narrow window) — a promptfoo config (gathered in PromptfooDialog first) or a Langfuse
// prompt, each saved where the user chooses — and, under the header, the promptfoo dialog while it
// is open and why the last export was not done; what it wrote is a toast (shared/ToastRegion.tsx).
// All state and actions live in TemplateExportStore.
//
// data-testids (tests select by them; keep them stable):
//   export-menu, export-menu-button                the menu (a details element) and its button
//   export-promptfoo, export-langfuse              its items
//   export-notice, export-failure,                 what the last export wrote (a toast); why it was
//     export-failure-problems                        not done, with every problem at its place
//   (the dialog's own: see PromptfooDialog.tsx)
import { useSyncExternalStore } from "react";
import { FailureAlert } from "../shared/ActionOutcome";
import { DropDownMenu } from "../shared/DropDownMenu";
import { useDoneToast } from "../shared/ToastRegion";
import { PromptfooDialog } from "./PromptfooDialog";
import type { TemplateExportStore } from "./store";
import "./exports.css";

/** The Export menu; `startScenario` gives the scenario the promptfoo dialog starts with (see savedScenarioPath). */
export function ExportMenu({
  store,
  startScenario,
}: {
  store: TemplateExportStore;
  startScenario: () => string | null;
}) {
  return (
    <DropDownMenu
      className="file-menu-fold export-menu"
      testId="export-menu"
      label="Export"
      buttonTestId="export-menu-button"
      title="Export the template in another tool's format"
      menu
    >
      <button
        type="button"
        role="menuitem"
        data-testid="export-promptfoo"
        title="A promptfoo config: the template as its prompt, a test per scenario"
        onClick={() => {
          store.openPromptfoo(startScenario());
        }}
      >
        promptfoo config…
      </button>
      <button
        type="button"
        role="menuitem"
        data-testid="export-langfuse"
        title="A Langfuse chat prompt: the template's first prompt, with its variables"
        onClick={() => void store.exportLangfuse()}
      >
        Langfuse prompt…
      </button>
    </DropDownMenu>
  );
}

/**
 * The promptfoo dialog while it is open (outside the menu, which a narrow window folds away), and
 * why the last export was not done (the dialog shows its own while open); what it wrote, as a toast.
 */
export function ExportNotices({ store }: { store: TemplateExportStore }) {
  const { promptfoo, notice, failure } = useSyncExternalStore(store.subscribe, store.getState);
  const dismiss = () => {
    store.dismiss();
  };
  useDoneToast(notice, "export-notice", dismiss);
  return (
    <>
      {promptfoo !== null && <PromptfooDialog store={store} draft={promptfoo} failure={failure} />}
      {promptfoo === null && failure !== null && (
        <FailureAlert failure={failure} whole="template" testId="export-failure" onDismiss={dismiss} />
      )}
    </>
  );
}
