// Renders SectionEditor in happy-dom: the title, template and summary in code fields with their
// test ids, the warnings under a field (unknown parameters, invalid `$`, a title's placeholders)
// following what is typed, and every change sent with the field's whole text.
import { EditorView } from "@codemirror/view";
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import type { Section } from "../platform";
import type { TextField } from "./edits";
import { SectionEditor } from "./SectionEditor";

let container: HTMLDivElement;
let root: Root;
let fields: [TextField, string][];

mountEachTest((mounted) => {
  ({ container, root } = mounted);
  fields = [];
});

const SECTION: Section = {
  key: "task",
  title: "Task for ${team}",
  template: "Do ${objective} by ${deadline}, costs $5",
  summary: "About $objective",
  visibility: "full",
  tools: [],
  children: [],
};

function render(section: Section = SECTION): void {
  act(() => {
    root.render(
      <SectionEditor
        path={section.key}
        section={section}
        params={["objective"]}
        onField={(field, value) => fields.push([field, value])}
        onRename={() => undefined}
        onVisibility={() => undefined}
      />,
    );
  });
}

function byTestId(id: string): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`no element with data-testid=${id}`);
  return element;
}

function warnings(field: string): string[] {
  const list = container.querySelector(`[data-testid="field-${field}-warnings"]`);
  return list === null ? [] : [...list.querySelectorAll("li")].map((li) => li.textContent);
}

function type(field: string, text: string): void {
  act(() => {
    const view = EditorView.findFromDOM(byTestId(`field-${field}`));
    if (view === null) throw new Error(`field-${field} is not a code field`);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.type" });
  });
}

describe("SectionEditor", () => {
  it("shows the title, template and summary in code fields, and the key in an input", () => {
    render();
    expect(byTestId("field-title").textContent).toBe("Task for ${team}");
    expect(byTestId("field-template").textContent).toBe("Do ${objective} by ${deadline}, costs $5");
    expect(byTestId("field-summary").textContent).toBe("About $objective");
    expect(byTestId("field-template").getAttribute("aria-label")).toBe("Template");
    expect((byTestId("field-key") as HTMLInputElement).value).toBe("task");
  });

  it("warns under a field about unknown parameters and invalid $, and links the warnings to it", () => {
    render();
    expect(warnings("template")).toEqual([
      "Unknown parameter ${deadline}: the template has no default for it, so a render without a value for it fails (\"missing parameter 'deadline'\")",
      "invalid placeholder at line 1, column 39: use ${name} or $name, and $$ for a literal $",
    ]);
    expect(warnings("summary")).toEqual([]);
    const list = byTestId("field-template-warnings");
    expect(byTestId("field-template").getAttribute("aria-describedby")).toBe(list.id);
  });

  it("notes that the title's placeholders are shown as written", () => {
    render();
    expect(warnings("title")).toEqual([
      "The title is shown as written: ${team} is not replaced by a value; only the template and the summary take parameters",
    ]);
  });

  it("sends every change with the whole text and warns about what was typed", () => {
    render();
    type("template", "Do ${objective}, costs $$5");
    expect(warnings("template")).toEqual([]);
    type("summary", "About ${topic}");
    expect(warnings("summary")).toEqual([
      "Unknown parameter ${topic}: the template has no default for it, so a render without a value for it fails (\"missing parameter 'topic'\")",
    ]);
    type("title", "Task");
    expect(warnings("title")).toEqual([]);
    expect(fields).toEqual([
      ["template", "Do ${objective}, costs $$5"],
      ["summary", "About ${topic}"],
      ["title", "Task"],
    ]);
  });
});
