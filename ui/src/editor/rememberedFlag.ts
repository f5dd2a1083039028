// A yes/no choice of the editor's views kept across restarts in the webview's localStorage (the
// offered tools' list closed, say): read once when a view is drawn, written when it changes. Where
// storage is refused (private mode, a full disk) the choice lasts as long as the view.
import { useState } from "react";

/** The keys of the choices kept, one per choice, under the app's prefix. */
export const OFFERED_TOOLS_CLOSED = "unfold.editor.offeredToolsClosed";

function readFlag(key: string, fallback: boolean): boolean {
  try {
    const stored = window.localStorage.getItem(key);
    return stored === null ? fallback : stored === "true";
  } catch {
    return fallback;
  }
}

function writeFlag(key: string, value: boolean): void {
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // Kept for this view only.
  }
}

/** The choice kept under `key` (`fallback` until one is) and what changes it, kept. */
export function useRememberedFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => readFlag(key, fallback));
  const change = (next: boolean) => {
    setValue(next);
    writeFlag(key, next);
  };
  return [value, change];
}
