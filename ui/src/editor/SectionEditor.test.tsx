// Renders SectionEditor in happy-dom: the title, template and summary in code fields with their
// test ids, the warnings under a field (unknown parameters, invalid `$`, a title's placeholders)
// following what is typed, and every change sent with the field's whole text; the key checked as
// typed (what is wrong under the field, which is marked invalid), never sent while invalid, put
// back by Escape and by leaving the field with an invalid key. Then in the whole editor over the
// fake platform: a rename leaves the focus where the user sent it (Tab, a click, Enter) and what
// is typed next lands there. A warning about an unknown parameter has a "Define <name>" button, one
// per name, that adds the parameter in one edit, after which the warning goes.
import { EditorView } from "@codemirror/view";
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import type { Section } from "../platform";
import { FakePlatform } from "../testing/fakePlatform";
import type { TextField } from "./edits";
import { SectionEditor } from "./SectionEditor";
import { EditorStore } from "./store";
import { byTestId, click, keyDown, settle, typeInto } from "../testing/dom";
import { renderWindow } from "../testing/editPage";

let container: HTMLDivElement;
let root: Root;
let fields: [TextField, string][];
let renames: string[];
let defines: string[];

mountEachTest((mounted) => {
  ({ container, root } = mounted);
  fields = [];
  renames = [];
  defines = [];
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
        siblingKeys={["context", "style"]}
        params={["objective"]}
        onField={(field, value) => fields.push([field, value])}
        onRename={(key) => renames.push(key)}
        onVisibility={() => undefined}
        onDefineParam={(name) => defines.push(name)}
      />,
    );
  });
}

function warnings(field: string): string[] {
  const list = container.querySelector(`[data-testid="field-${field}-warnings"]`);
  return list === null ? [] : [...list.querySelectorAll("li > span")].map((span) => span.textContent);
}

function keyField(): HTMLInputElement {
  return byTestId("field-key") as HTMLInputElement;
}

/** What the key field says is wrong ("" when nothing). */
function keyProblem(): string {
  return byTestId("field-key-problem").textContent;
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

  it("offers to define each unknown parameter of the template and the summary, one button per name", () => {
    render({ ...SECTION, template: "Do ${objective} by ${deadline} for $team, then ${deadline}, costs $5" });
    const buttons = (field: string) => [
      ...container.querySelectorAll<HTMLButtonElement>(
        `[data-testid="field-${field}-warnings"] [data-testid="define-param"]`,
      ),
    ];
    expect(buttons("template").map((button) => [button.textContent, button.dataset.name])).toEqual([
      ["Define deadline", "deadline"],
      ["Define team", "team"],
    ]);
    expect(buttons("title")).toEqual([]);
    expect(buttons("summary")).toEqual([]);
    act(() => {
      buttons("template")[1]?.click();
    });
    expect(defines).toEqual(["team"]);
    type("summary", "About ${audience}");
    expect(buttons("summary").map((button) => button.textContent)).toEqual(["Define audience"]);
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

describe("SectionEditor: the key as typed", () => {
  it("says under the field what is wrong with the key while it is typed, and marks the field invalid", () => {
    render();
    const key = keyField();
    expect(keyProblem()).toBe("");
    expect(key.getAttribute("aria-invalid")).toBe("false");
    expect(key.hasAttribute("aria-describedby")).toBe(false);

    typeInto(key, "Task");
    expect(keyProblem()).toBe("A key is lowercase: write 't' for 'T'");
    expect(key.getAttribute("aria-invalid")).toBe("true");
    expect(key.getAttribute("aria-describedby")).toBe(byTestId("field-key-problem").id);
    expect(byTestId("field-key-problem").getAttribute("aria-live")).toBe("polite");

    typeInto(key, "my task");
    expect(keyProblem()).toBe("A key has no spaces: join words with - or _");
    typeInto(key, "style");
    expect(keyProblem()).toBe("Another section at this level already has the key 'style'");
    typeInto(key, "");
    expect(keyProblem()).toBe(
      "A section needs a key: lowercase letters, digits, _ and -, starting with a letter or a digit",
    );

    typeInto(key, "my-task");
    expect(keyProblem()).toBe("");
    expect(key.getAttribute("aria-invalid")).toBe("false");
    expect(key.hasAttribute("aria-describedby")).toBe(false);
    expect(renames).toEqual([]);
  });

  it("sends nothing on Enter while the key is invalid, and keeps the text to fix", () => {
    render();
    typeInto(keyField(), "My Task");
    keyDown(keyField(), "Enter");
    expect(renames).toEqual([]);
    expect(keyField().value).toBe("My Task");
    typeInto(keyField(), " my-task ");
    keyDown(keyField(), "Enter");
    expect(renames).toEqual(["my-task"]);
    expect(keyField().value).toBe("my-task");
  });

  it("puts back the section's key on Escape, valid or not", () => {
    render();
    typeInto(keyField(), "Bad Key");
    keyDown(keyField(), "Escape");
    expect(keyField().value).toBe("task");
    expect(keyProblem()).toBe("");
    expect(keyField().getAttribute("aria-invalid")).toBe("false");
    typeInto(keyField(), "job");
    keyDown(keyField(), "Escape");
    expect(keyField().value).toBe("task");
    act(() => {
      keyField().dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    });
    expect(renames).toEqual([]);
  });

  it("puts back the section's key when the field is left with an invalid one, and sends nothing", () => {
    render();
    typeInto(keyField(), "_task");
    expect(keyProblem()).toBe("A key starts with a lowercase letter or a digit, not '_'");
    act(() => {
      keyField().dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    });
    expect(renames).toEqual([]);
    expect(keyField().value).toBe("task");
    expect(keyProblem()).toBe("");
  });

  it("renames when the field is left with a valid key", () => {
    render();
    typeInto(keyField(), "job");
    act(() => {
      keyField().dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
    });
    expect(renames).toEqual(["job"]);
  });
});

describe("SectionEditor in the editor: the focus after a rename", () => {
  async function renderEditor(): Promise<{ platform: FakePlatform; store: EditorStore }> {
    const platform = new FakePlatform();
    const store = (await renderWindow(root, platform)).editor;
    await settle();
    return { platform, store };
  }

  /** Moves the focus to `element` as the browser does for Tab or a click: the field left blurs. */
  async function moveFocus(element: HTMLElement): Promise<void> {
    await act(async () => {
      element.focus();
      await Promise.resolve();
    });
    await settle();
  }

  /**
   * happy-dom reports a change of the page's selection at once, from inside the code field's own
   * update when it has the focus (a browser reports it later), which CodeMirror refuses. The code
   * fields here need no such report (their selection is their own): it is held back.
   */
  const holdBack = (event: Event) => {
    event.stopImmediatePropagation();
  };
  beforeEach(() => {
    window.addEventListener("selectionchange", holdBack, true);
  });
  afterEach(() => {
    window.removeEventListener("selectionchange", holdBack, true);
  });

  /** Types at the end of the code field that has the focus, as its editor takes a key press. */
  async function typeInFocusedField(text: string): Promise<void> {
    const active = document.activeElement;
    const view = active instanceof HTMLElement ? EditorView.findFromDOM(active) : null;
    if (view === null) throw new Error("the focus is not in a code field");
    await act(async () => {
      view.dispatch({ changes: { from: view.state.doc.length, insert: text }, userEvent: "input.type" });
      await Promise.resolve();
    });
    await settle();
  }

  function renameEdits(platform: FakePlatform): unknown[] {
    return platform.argsOf("applyEdit").map(([, edit]) => edit);
  }

  it("keeps the focus in the next field after a rename by Tab, and what is typed lands there", async () => {
    const { platform, store } = await renderEditor();
    const key = keyField();
    await moveFocus(key);
    typeInto(key, "job");
    keyDown(key, "Tab");
    const title = byTestId("field-title");
    await moveFocus(title);

    expect(renameEdits(platform)).toEqual([{ op: "rename_section", path: "task", key: "job" }]);
    expect(store.getState().selected).toBe("job");
    expect(byTestId("section-editor").getAttribute("aria-label")).toBe("Section job");
    expect(byTestId("field-title")).toBe(title);
    expect(document.activeElement).toBe(title);

    await typeInFocusedField(" now");
    expect(renameEdits(platform).at(-1)).toMatchObject({
      op: "set_section_fields",
      path: "job",
      fields: { title: "Task now" },
    });
    expect(document.activeElement).toBe(byTestId("field-title"));
  });

  it("renames a section just added from its focused key, and Tab leaves the focus in its title", async () => {
    const { platform, store } = await renderEditor();
    await act(async () => {
      container.querySelector<HTMLElement>('[aria-label="Add child"]')?.click();
      await Promise.resolve();
    });
    await settle();
    const key = keyField();
    expect(store.getState().selected).toBe("task.section");
    expect(document.activeElement).toBe(key);
    typeInto(key, "intro");
    keyDown(key, "Tab");
    const title = byTestId("field-title");
    await moveFocus(title);
    expect(renameEdits(platform).at(-1)).toEqual({ op: "rename_section", path: "task.section", key: "intro" });
    expect(store.getState().selected).toBe("task.intro");
    expect(document.activeElement).toBe(title);
    await typeInFocusedField(" here");
    expect(renameEdits(platform).at(-1)).toMatchObject({
      op: "set_section_fields",
      path: "task.intro",
      fields: { title: "New section here" },
    });
  });

  it("keeps the focus on the control clicked after a rename", async () => {
    const { platform } = await renderEditor();
    await moveFocus(keyField());
    typeInto(keyField(), "job");
    const template = byTestId("field-template");
    await moveFocus(template);
    expect(renameEdits(platform)).toEqual([{ op: "rename_section", path: "task", key: "job" }]);
    expect(document.activeElement).toBe(template);
    expect(byTestId("field-template")).toBe(template);
  });

  it("keeps the focus in the key field after a rename by Enter", async () => {
    const { platform, store } = await renderEditor();
    const key = keyField();
    await moveFocus(key);
    typeInto(key, "job");
    keyDown(key, "Enter");
    await settle();
    expect(renameEdits(platform)).toEqual([{ op: "rename_section", path: "task", key: "job" }]);
    expect(store.getState().selected).toBe("job");
    expect(keyField()).toBe(key);
    expect(document.activeElement).toBe(key);
    expect(key.value).toBe("job");
  });

  it("defines an unknown parameter from its warning in one edit; the warning goes, the focus is back in the field", async () => {
    const { platform, store } = await renderEditor();
    const template = byTestId("field-template");
    await moveFocus(template);
    await typeInFocusedField(" in a ${tone} voice");
    const define = container.querySelector<HTMLButtonElement>(
      '[data-testid="field-template-warnings"] [data-testid="define-param"][data-name="tone"]',
    );
    expect(define?.textContent).toBe("Define tone");
    const sent = platform.argsOf("applyEdit").length;
    await moveFocus(define as HTMLButtonElement);
    await act(async () => {
      define?.click();
      await Promise.resolve();
    });
    await settle();

    expect(platform.argsOf("applyEdit").slice(sent)).toEqual([[1, { op: "set_param", name: "tone", value: "" }, null]]);
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor", tone: "" });
    expect(container.querySelector('[data-testid="field-template-warnings"]')).toBeNull();
    expect(byTestId("field-template").querySelector(".cm-param-unknown")).toBeNull();
    expect(document.activeElement).toBe(byTestId("field-template"));
    await click(byTestId("tab-template"));
    expect(
      [...container.querySelectorAll('[data-testid="param-row"]')].map((row) => row.getAttribute("data-name")),
    ).toEqual(["objective", "tone"]);
    // One step: undo takes the parameter away and the warning is back.
    await click(byTestId("undo-button"));
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor" });
  });

  it("puts back the key when an invalid one is left by Tab, and sends nothing", async () => {
    const { platform, store } = await renderEditor();
    const key = keyField();
    await moveFocus(key);
    typeInto(key, "Job");
    keyDown(key, "Tab");
    const title = byTestId("field-title");
    await moveFocus(title);
    expect(renameEdits(platform)).toEqual([]);
    expect(key.value).toBe("task");
    expect(store.getState().failure).toBeNull();
    expect(container.querySelector('[data-testid="edit-failure"]')).toBeNull();
    expect(document.activeElement).toBe(title);
  });
});
