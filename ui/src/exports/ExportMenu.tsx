// The Export menu for the open template, among the header's file actions (so it folds into the File
// menu in a narrow window) — a promptfoo config (gathered in PromptfooDialog first), a Langfuse
// prompt or an Agent Skills folder, each written where the user chooses — and, under the header,
// the promptfoo dialog while it is open, the question before a skills folder with files is written
// over, and why the last export was not done; what it wrote is a toast (shared/ToastRegion.tsx).
// All state and actions live in TemplateExportStore.
//
// data-testids (tests select by them; keep them stable):
//   export-menu, export-menu-button                the menu (a details element) and its button
//   export-promptfoo, export-langfuse,             its items
//     export-skills
//   skills-overwrite-dialog, skills-overwrite,     the question before writing over a folder's files,
//     skills-overwrite-cancel                        and its answers
//   export-notice, export-failure,                 what the last export wrote (a toast); why it was
//     export-failure-problems                        not done, with every problem at its place
//   (the dialog's own: see PromptfooDialog.tsx)
import { useSyncExternalStore } from "react";
import { FailureAlert } from "../shared/ActionOutcome";
import { DropDownMenu } from "../shared/DropDownMenu";
import { ModalDialog } from "../shared/ModalDialog";
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
      <button
        type="button"
        role="menuitem"
        data-testid="export-skills"
        title="An Agent Skills folder: a folder per skill with its SKILL.md and files"
        onClick={() => void store.exportSkills()}
      >
        Agent Skills folder…
      </button>
    </DropDownMenu>
  );
}

/**
 * The promptfoo dialog while it is open (outside the menu, which a narrow window folds away), and
 * why the last export was not done (the dialog shows its own while open); what it wrote, as a toast.
 */
export function ExportNotices({ store }: { store: TemplateExportStore }) {
  const { promptfoo, overwrite, notice, failure } = useSyncExternalStore(store.subscribe, store.getState);
  const dismiss = () => {
    store.dismiss();
  };
  useDoneToast(notice, "export-notice", dismiss);
  return (
    <>
      {promptfoo !== null && <PromptfooDialog store={store} draft={promptfoo} failure={failure} />}
      {overwrite !== null && <OverwriteDialog store={store} folder={overwrite} />}
      {promptfoo === null && failure !== null && (
        <FailureAlert failure={failure} whole="template" testId="export-failure" onDismiss={dismiss} />
      )}
    </>
  );
}

/** Whether to write the skills into `folder`, which has files in it: theirs are written over, the others stay. */
function OverwriteDialog({ store, folder }: { store: TemplateExportStore; folder: string }) {
  const cancel = () => {
    store.cancelOverwrite();
  };
  return (
    <ModalDialog role="alertdialog" titleId="skills-overwrite-title" testId="skills-overwrite-dialog" onEscape={cancel}>
      {(focusFirst) => (
        <>
          <h2 id="skills-overwrite-title">Write the skills into a folder with files?</h2>
          <p>
            <code>{folder}</code> is not empty. The skills&apos; files are written over; every other file in it stays.
          </p>
          <div className="dialog-actions">
            <button type="button" data-testid="skills-overwrite" onClick={() => void store.confirmOverwrite()}>
              Write over
            </button>
            <button type="button" ref={focusFirst} data-testid="skills-overwrite-cancel" onClick={cancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
