// The keyboard shortcut help: every shortcut from SHORTCUT_HELP, by where it works; Escape, the
// help key again or the Close button hides it. One table for every place (a body each, headed by
// its place), so the keys line up in one column across the whole overlay.
import { ModalDialog } from "../shared/ModalDialog";
import { SHORTCUT_HELP, SHORTCUT_PLACES, type ShortcutPlace } from "./shortcuts";

const PLACE_HEADINGS: Record<ShortcutPlace, string> = {
  anywhere: "Anywhere",
  "edit page": "On the Edit page",
  "compare page": "On the Compare page",
  "section tree": "In the section tree",
};

export function ShortcutHelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog
      role="dialog"
      titleId="shortcut-help-title"
      testId="shortcut-help"
      className="shortcut-help"
      onEscape={onClose}
    >
      {(focusFirst) => (
        <>
          <h2 id="shortcut-help-title">Keyboard shortcuts</h2>
          <table className="shortcut-table">
            {SHORTCUT_PLACES.map((where) => (
              <tbody key={where} data-testid="shortcut-place" data-place={where}>
                <tr>
                  <th scope="colgroup" colSpan={2}>
                    {PLACE_HEADINGS[where]}
                  </th>
                </tr>
                {SHORTCUT_HELP.filter((line) => line.where === where).map((line) => (
                  <tr key={line.keys}>
                    <td>
                      <kbd>{line.keys}</kbd>
                    </td>
                    <td>{line.does}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
          <p className="notice">On macOS, Cmd works wherever Ctrl is shown.</p>
          <div className="dialog-actions">
            <button type="button" ref={focusFirst} onClick={onClose}>
              Close
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
