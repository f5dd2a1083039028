// Test-only: what the UI's tests do to let the work they started finish and to find and use what is
// drawn, written once: `settle`, the queries by test id or label (over the whole document: each test
// draws into its own element of it, see testRoot.ts), a click, typing, a choice and a key press as
// React sees them.
import { EditorView } from "@codemirror/view";
import { act } from "react";

/**
 * Lets the work under way finish: the timers due within `ms` fire and every promise chained so far
 * settles (the fake backend answers at once), inside React's act() so that what changed is drawn.
 */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
}

/** The element with data-testid `id` (the first of several); throws when there is none. */
export function byTestId(id: string, within: ParentNode = document.body): HTMLElement {
  const element = within.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`no element with data-testid=${id}`);
  return element;
}

/** The element labelled `label` (aria-label); throws when there is none. */
export function byLabel(label: string, within: ParentNode = document.body): HTMLElement {
  const element = within.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (element === null) throw new Error(`no element labelled ${label}`);
  return element;
}

/** Every element with data-testid `id`, in document order. */
export function all(id: string, within: ParentNode = document.body): HTMLElement[] {
  return [...within.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
}

/** The one element with data-testid `id`; throws when there is none or more than one. */
export function one(id: string, within: ParentNode = document.body): HTMLElement {
  const [element, ...more] = all(id, within);
  if (element === undefined || more.length > 0) throw new Error(`not exactly one data-testid=${id}`);
  return element;
}

/** Whether no element has data-testid `id`. */
export function none(id: string, within: ParentNode = document.body): boolean {
  return all(id, within).length === 0;
}

/** Clicks `element`, then settles. */
export async function click(element: HTMLElement): Promise<void> {
  act(() => {
    element.click();
  });
  await settle();
}

/** The CodeMirror view of a code field, from its editable element. */
function codeView(element: HTMLElement): EditorView | null {
  return element.classList.contains("cm-content") ? EditorView.findFromDOM(element) : null;
}

/** The text of an input, a textarea, a select or a code field. */
export function valueOf(element: HTMLElement): string {
  const view = codeView(element);
  if (view !== null) return view.state.doc.toString();
  return (element as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;
}

/**
 * Types `text` in place of an input's or a textarea's value the way React sees it (the value setter,
 * then an input event), or of a code field's as CodeMirror takes typing (one typed change).
 */
export function typeInto(element: HTMLElement, text: string): void {
  act(() => {
    const view = codeView(element);
    if (view !== null) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.type" });
      return;
    }
    const prototype =
      element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(element, text);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Chooses `value` in a select the way React sees it (the value setter, then a change event). */
export function choose(select: HTMLElement, value: string): void {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value")?.set?.call(select, value);
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

/** A key pressed on `target` (it bubbles, as a real key press does); the event, to see what was done with it. */
export function keyDown(target: EventTarget, key: string, mods: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...mods });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
}
