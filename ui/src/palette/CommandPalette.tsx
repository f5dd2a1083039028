// The command palette: a modal with a field and the commands it finds (commands.ts ranks them),
// as a combobox over a list box. ↑ and ↓ move among the commands that can be done, Enter or a click
// does the one picked and closes, Escape closes; either way the focus goes back where it was.
// Commands that cannot be done where the user is are listed dimmed, after the others.
//
// data-testids (tests select by them; keep them stable):
//   command-palette, palette-query       the palette and its field
//   palette-command (data-id,            a command found (aria-disabled when it cannot be done
//     aria-selected), palette-keys         here; aria-selected when picked), its shortcut's keys
//   palette-none                         nothing found
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { ModalDialog } from "../shared/ModalDialog";
import { nextAvailable, rankCommands, type PaletteCommand } from "./commands";
import "./palette.css";

/** The most commands listed at once: a long template's sections are found by typing. */
const SHOWN = 50;

export function CommandPalette({ commands, onClose }: { commands: readonly PaletteCommand[]; onClose: () => void }) {
  const [query, setQuery] = useState("");
  const found = useMemo(() => rankCommands(commands, query).slice(0, SHOWN), [commands, query]);
  const [picked, setPicked] = useState<number | null>(null);
  // A new query picks its best command that can be done.
  const current = picked !== null && found[picked]?.available === true ? picked : nextAvailable(found, -1, 1);
  useFocusReturned();
  const listId = useId();
  const optionId = (index: number) => `${listId}-${String(index)}`;
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (current !== null) list.current?.children[current]?.scrollIntoView({ block: "nearest" });
  }, [current]);

  const perform = (command: PaletteCommand | undefined) => {
    if (command?.available !== true) return;
    onClose();
    command.perform();
  };

  return (
    <ModalDialog<HTMLInputElement>
      role="dialog"
      titleId={`${listId}-title`}
      testId="command-palette"
      className="command-palette"
      onEscape={onClose}
    >
      {(focusFirst) => (
        <>
          <h2 id={`${listId}-title`} className="palette-heading">
            Commands
          </h2>
          <input
            ref={focusFirst}
            type="text"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={current === null ? undefined : optionId(current)}
            aria-label="Find a command"
            placeholder="Find a command, a page or a section…"
            data-testid="palette-query"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setPicked(null);
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                event.preventDefault();
                setPicked(nextAvailable(found, current ?? -1, event.key === "ArrowDown" ? 1 : -1));
              } else if (event.key === "Enter") {
                event.preventDefault();
                perform(current === null ? undefined : found[current]);
              } else if (event.key === "Tab") {
                // The field is the palette's one stop: Tab stays in it rather than leave the modal.
                event.preventDefault();
              }
            }}
          />
          <ul className="palette-list" role="listbox" id={listId} ref={list} aria-label="Commands found">
            {found.map((command, index) => (
              <li
                key={command.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === current}
                aria-disabled={!command.available}
                title={command.available ? undefined : "Not available here"}
                data-testid="palette-command"
                data-id={command.id}
                onMouseDown={(event) => {
                  // Keeps the focus in the field.
                  event.preventDefault();
                }}
                onClick={() => {
                  perform(command);
                }}
              >
                <span className="palette-title">{command.title}</span>
                {command.detail !== undefined && <code className="palette-detail ellipsis">{command.detail}</code>}
                {command.keys !== undefined && (
                  <kbd className="palette-keys" data-testid="palette-keys">
                    {command.keys}
                  </kbd>
                )}
              </li>
            ))}
          </ul>
          {found.length === 0 && (
            <p className="notice palette-none" data-testid="palette-none">
              No command matches “{query}”.
            </p>
          )}
        </>
      )}
    </ModalDialog>
  );
}

/** Gives the focus back, when the palette closes, to what had it when the palette opened. */
function useFocusReturned(): void {
  // Read while drawing the palette the first time, before its field takes the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(
    () => () => {
      if (opener?.isConnected === true) opener.focus();
    },
    [opener],
  );
}
