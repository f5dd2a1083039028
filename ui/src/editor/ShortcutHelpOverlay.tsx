// The keyboard shortcut help: every shortcut from SHORTCUT_HELP, by where it works; Escape, the
// help key again or the Close button hides it.
import { ModalDialog } from "../ModalDialog";
import { SHORTCUT_HELP } from "./shortcuts";

export function ShortcutHelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog role="dialog" titleId="shortcut-help-title" testId="shortcut-help" className="shortcut-help" onEscape={onClose}>
      {(focusFirst) => (
        <>
          <h2 id="shortcut-help-title">Keyboard shortcuts</h2>
          {(["anywhere", "section tree"] as const).map((where) => (
            <section key={where}>
              <h3>{where === "anywhere" ? "Anywhere" : "In the section tree"}</h3>
              <table>
                <tbody>
                  {SHORTCUT_HELP.filter((line) => line.where === where).map((line) => (
                    <tr key={line.keys}>
                      <td>
                        <kbd>{line.keys}</kbd>
                      </td>
                      <td>{line.does}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
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
