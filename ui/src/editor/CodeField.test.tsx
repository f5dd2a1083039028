// Renders CodeField in happy-dom: the text and attributes on the element that takes the keys,
// placeholder marks (known, unknown, invalid `$`, following the template's parameters), edits
// typed or dispatched reported with the whole text, a value from outside taken without being
// reported back, one-line fields, and undo keys left to the page (no history of its own); and the
// text a field shows until its editor's chunk is loaded.
import { historyField } from "@codemirror/commands";
import { EditorView } from "@codemirror/view";
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import {
  CompletionContext,
  type CompletionResult,
  currentCompletions,
  startCompletion,
} from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { CodeField, CodeFieldText, type CodeFieldProps } from "./CodeField";
import { completionModule, parameterCompletions } from "./parameterCompletion";
import { settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;
let reported: string[];

mountEachTest((mounted) => {
  ({ container, root } = mounted);
  reported = [];
});

function render(props: Partial<CodeFieldProps> = {}): void {
  act(() => {
    root.render(
      <CodeField
        value="Do ${objective} for $who"
        testId="field-template"
        label="Template"
        params={["objective"]}
        onChange={(text) => reported.push(text)}
        {...props}
      />,
    );
  });
}

function content(): HTMLElement {
  const element = container.querySelector<HTMLElement>('[data-testid="field-template"]');
  if (element === null) throw new Error("no field-template");
  return element;
}

function editorView(): EditorView {
  const view = EditorView.findFromDOM(content());
  if (view === null) throw new Error("no editor view");
  return view;
}

function marks(className: string): { text: string; title: string | null }[] {
  return [...content().querySelectorAll(`.${className}`)].map((mark) => ({
    text: mark.textContent,
    title: mark.getAttribute("title"),
  }));
}

describe("CodeField", () => {
  it("shows the text on the editable element, with its test id and accessible name", () => {
    render({ describedBy: "warnings" });
    const element = content();
    expect(element.textContent).toBe("Do ${objective} for $who");
    expect(element.classList.contains("cm-content")).toBe(true);
    expect(element.getAttribute("contenteditable")).toBe("true");
    expect(element.getAttribute("aria-label")).toBe("Template");
    expect(element.getAttribute("aria-multiline")).toBe("true");
    expect(element.getAttribute("aria-describedby")).toBe("warnings");
  });

  it("starts with the cursor after the text, where keys sent to the field go", () => {
    render();
    const { state } = editorView();
    expect(state.selection.main.empty).toBe(true);
    expect(state.selection.main.head).toBe(state.doc.length);
  });

  it("marks placeholders, the unknown ones and invalid $ apart", () => {
    render({ value: "${objective} $who $$5 costs $5" });
    expect(marks("cm-param")).toEqual([
      { text: "${objective}", title: null },
      { text: "$who", title: expect.stringContaining("Unknown parameter ${who}") as unknown },
    ]);
    expect(marks("cm-param-unknown").map((mark) => mark.text)).toEqual(["$who"]);
    expect(marks("cm-param-invalid")).toEqual([
      { text: "$", title: "invalid placeholder at line 1, column 29: use ${name} or $name, and $$ for a literal $" },
    ]);
  });

  it("marks nothing when it has no parameters to check against", () => {
    render({ params: undefined });
    expect(marks("cm-param")).toEqual([]);
  });

  it("follows the template's parameters when they change", () => {
    render();
    expect(marks("cm-param-unknown").map((mark) => mark.text)).toEqual(["$who"]);
    render({ params: ["objective", "who"] });
    expect(marks("cm-param-unknown")).toEqual([]);
    expect(marks("cm-param").map((mark) => mark.text)).toEqual(["${objective}", "$who"]);
  });

  it("reports an edit with the whole text and marks what was typed", () => {
    render();
    act(() => {
      const view = editorView();
      view.dispatch({ changes: { from: view.state.doc.length, insert: " by ${deadline}" }, userEvent: "input.type" });
    });
    expect(reported).toEqual(["Do ${objective} for $who by ${deadline}"]);
    expect(marks("cm-param-unknown").map((mark) => mark.text)).toEqual(["$who", "${deadline}"]);
  });

  it("reports text typed into the page", async () => {
    render({ value: "Hello" });
    const text = content().querySelector(".cm-line")?.firstChild;
    if (!(text instanceof Text)) throw new Error("no text node in the line");
    text.data = "Hello $name";
    await settle();
    expect(reported).toEqual(["Hello $name"]);
    expect(editorView().state.doc.toString()).toBe("Hello $name");
  });

  it("keeps a \\r in the text: only \\n breaks lines, as in the core", () => {
    render({ value: "a\r\n$who" });
    act(() => {
      const view = editorView();
      view.dispatch({ changes: { from: view.state.doc.length, insert: "!" } });
    });
    expect(reported).toEqual(["a\r\n$who!"]);
    expect(marks("cm-param-unknown").map((mark) => mark.text)).toEqual(["$who"]);
  });

  it("takes a value from outside without reporting it, keeping the cursor where it was", () => {
    render({ value: "one two three" });
    act(() => {
      editorView().dispatch({ selection: { anchor: 2 } });
    });
    render({ value: "one 2 three" });
    expect(content().textContent).toBe("one 2 three");
    expect(editorView().state.selection.main.head).toBe(2);
    expect(reported).toEqual([]);
  });

  it("does not go back to an older value once the text has moved on", () => {
    render({ value: "a" });
    act(() => {
      editorView().dispatch({ changes: { from: 1, insert: "b" } });
    });
    // The parent passes back what was reported, as a controlled field's owner does.
    render({ value: "ab" });
    expect(content().textContent).toBe("ab");
    expect(reported).toEqual(["ab"]);
  });

  it("keeps no history and leaves Ctrl+Z and Ctrl+Shift+Z to the page", () => {
    render();
    act(() => {
      editorView().dispatch({ changes: { from: 0, to: 2, insert: "Make" } });
    });
    expect(editorView().state.field(historyField, false)).toBeUndefined();
    const seen: string[] = [];
    const listener = (event: KeyboardEvent) => {
      if (!event.defaultPrevented) seen.push(`${event.shiftKey ? "Shift+" : ""}${event.key}`);
    };
    window.addEventListener("keydown", listener);
    try {
      for (const init of [{ key: "z" }, { key: "Z", shiftKey: true }, { key: "y" }]) {
        content().dispatchEvent(
          new KeyboardEvent("keydown", { ...init, ctrlKey: true, bubbles: true, cancelable: true }),
        );
      }
    } finally {
      window.removeEventListener("keydown", listener);
    }
    expect(seen).toEqual(["z", "Shift+Z", "y"]);
    expect(editorView().state.doc.toString()).toBe("Make ${objective} for $who");
  });

  it("keeps a one-line field on one line", () => {
    render({ value: "Task", singleLine: true, testId: "field-template" });
    expect(content().getAttribute("aria-multiline")).toBe("false");
    const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    act(() => {
      content().dispatchEvent(enter);
    });
    expect(enter.defaultPrevented, "Enter is taken before the browser inserts a line").toBe(true);
    act(() => {
      editorView().dispatch({
        changes: { from: 4, insert: " one\ntwo" },
        selection: { anchor: 12 },
        userEvent: "input.paste",
      });
    });
    expect(reported).toEqual(["Task one two"]);
    expect(editorView().state.selection.main.head).toBe(12);
  });

  it("offers the template's parameters once ${ is typed, each completed to ${name}", () => {
    const complete = (doc: string, pos = doc.length) =>
      parameterCompletions(["company", "goal"])(
        new CompletionContext(EditorState.create({ doc }), pos, false),
      ) as CompletionResult | null;
    expect(complete("Hello there")).toBeNull();
    expect(complete("Hello $")).toBeNull();
    const offered = complete("Hello ${co");
    expect(offered?.from).toBe("Hello ".length);
    expect(offered?.options.map((option) => [option.label, option.apply])).toEqual([
      ["${company}", "${company}"],
      ["${goal}", "${goal}"],
    ]);
    // Inside a closed placeholder the brace that is there is kept.
    expect(complete("Hello ${}", "Hello ${".length)?.options[0]?.apply).toBe("${company");
  });

  it("completes the parameters once the completion's chunk is loaded, in a field made before", async () => {
    render({ value: "Hello ", params: ["company", "goal"] });
    await act(() => completionModule.load());
    act(() => {
      editorView().dispatch({
        changes: { from: 6, insert: "${co" },
        selection: { anchor: 10 },
        userEvent: "input.type",
      });
      startCompletion(editorView());
    });
    await vi.waitFor(() => {
      expect(currentCompletions(editorView().state).map((option) => option.label)).toEqual(["${company}"]);
    });
  });
});

describe("CodeFieldText (a field until its editor is loaded)", () => {
  function showText(props: Partial<CodeFieldProps>): HTMLElement {
    act(() => {
      root.render(<CodeFieldText value="" testId="field-template" label="Template" onChange={() => {}} {...props} />);
    });
    const text = container.querySelector<HTMLElement>(".code-field .cm-editor .cm-scroller .cm-content");
    if (text === null) throw new Error("no text in the editor's elements");
    return text;
  }

  it("shows each line of the text where the editor will, named, read-only, and without the editor's test id", () => {
    const text = showText({ value: "First line\n\nThird ${objective}", rows: 4 });
    expect([...text.querySelectorAll(".cm-line")].map((line) => line.textContent)).toEqual([
      "First line",
      "",
      "Third ${objective}",
    ]);
    expect(text.getAttribute("aria-label")).toBe("Template");
    expect(text.getAttribute("aria-readonly")).toBe("true");
    expect(text.getAttribute("aria-multiline")).toBe("true");
    expect(container.querySelector<HTMLElement>(".code-field")?.style.getPropertyValue("--code-field-rows")).toBe("4");
    expect(container.querySelector('[data-testid="field-template"]')).toBeNull();
  });

  it("shows an empty field's hint, and a one-line field as one line", () => {
    const text = showText({ value: "", placeholder: "Untitled", singleLine: true });
    expect(text.querySelector(".cm-placeholder")?.textContent).toBe("Untitled");
    expect(text.getAttribute("aria-multiline")).toBe("false");
  });
});
