// The Template panel's parameters in the whole editor over the fake platform: a parameter's name is
// a field checked as it is typed (the rule in words under it, the field marked invalid and described
// by it, a name another parameter has refused), renamed on Tab, a click elsewhere or Enter (two
// set_param edits in one undo group: the new name with the default at the old place, then the old
// name removed), with the focus where the user sent it and the row kept; Escape, or leaving the field
// with an invalid name, puts back the name and sends nothing. And the row keys that keep a renamed
// parameter's row.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { EditorStore } from "./store";
import { paramRowKeys } from "./TemplatePanel";
import { byTestId, click, keyDown, settle, typeInto } from "../testing/dom";
import { renderWindow } from "../testing/editPage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** The editor over the example template, on its Template tab. */
async function renderPanel(): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const platform = new FakePlatform();
  const store = (await renderWindow(root, platform)).editor;
  await settle();
  await click(byTestId("tab-template"));
  return { platform, store };
}

/** The row of parameter `name`. */
function row(name: string): HTMLElement {
  const found = container.querySelector<HTMLElement>(`[data-testid="param-row"][data-name="${name}"]`);
  if (found === null) throw new Error(`no row for parameter ${name}`);
  return found;
}

function nameField(name: string): HTMLInputElement {
  return byTestId("param-name", row(name)) as HTMLInputElement;
}

function valueField(name: string): HTMLInputElement {
  return byTestId("param-value", row(name)) as HTMLInputElement;
}

/** What the name field of `name`'s row says is wrong ("" when nothing). */
function problemOf(name: string): string {
  return byTestId("param-name-problem", row(name)).textContent;
}

function paramNames(): (string | null)[] {
  return [...container.querySelectorAll('[data-testid="param-row"]')].map((r) => r.getAttribute("data-name"));
}

function edits(platform: FakePlatform): unknown[][] {
  return platform.argsOf("applyEdit").map(([, edit, group]) => [edit, group]);
}

/** Moves the focus to `element` as the browser does for Tab or a click: the field left blurs. */
async function moveFocus(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.focus();
    await Promise.resolve();
  });
  await settle();
}

describe("TemplatePanel: a parameter's name", () => {
  it("shows each parameter's name in a field, its default beside it", async () => {
    await renderPanel();
    expect(paramNames()).toEqual(["objective"]);
    expect(nameField("objective").value).toBe("objective");
    expect(nameField("objective").getAttribute("aria-label")).toBe("Name of parameter objective");
    expect(valueField("objective").value).toBe("Refactor");
    expect(problemOf("objective")).toBe("");
  });

  it("renames on Tab with two edits in one undo group, and the focus stays in the default field", async () => {
    const { platform, store } = await renderPanel();
    await click(byTestId("add-param"));
    const name = nameField("objective");
    const value = valueField("objective");
    await moveFocus(name);
    typeInto(name, "goal");
    await settle();
    keyDown(name, "Tab");
    await settle();
    await moveFocus(value);

    const group = "param-name/objective/goal";
    expect(edits(platform).slice(1)).toEqual([
      [{ op: "set_param", name: "goal", value: "Refactor", index: 0 }, group],
      [{ op: "set_param", name: "objective", value: null }, group],
    ]);
    expect(paramNames()).toEqual(["goal", "param"]);
    expect(store.getState().document.template.params).toEqual({ goal: "Refactor", param: "" });
    // The same row and the same fields: the focus is where Tab sent it.
    expect(nameField("goal")).toBe(name);
    expect(valueField("goal")).toBe(value);
    expect(document.activeElement).toBe(value);
    expect(value.getAttribute("aria-label")).toBe("Default of goal");

    typeInto(value, "Ship it");

    await settle();
    expect(edits(platform).at(-1)).toEqual([{ op: "set_param", name: "goal", value: "Ship it" }, "param/goal"]);
    expect(document.activeElement).toBe(value);

    // The rename is one step: one undo for the default typed, one for the rename.
    await click(byTestId("undo-button"));
    await click(byTestId("undo-button"));
    expect(store.getState().document.template.params).toEqual({ objective: "Refactor", param: "" });
    expect(paramNames()).toEqual(["objective", "param"]);
  });

  it("renames on Enter and keeps the focus in the name field", async () => {
    const { platform } = await renderPanel();
    const name = nameField("objective");
    await moveFocus(name);
    typeInto(name, " task_goal ");
    await settle();
    keyDown(name, "Enter");
    await settle();
    expect(edits(platform).map(([edit]) => edit)).toEqual([
      { op: "set_param", name: "task_goal", value: "Refactor", index: 0 },
      { op: "set_param", name: "objective", value: null },
    ]);
    expect(nameField("task_goal")).toBe(name);
    expect(document.activeElement).toBe(name);
    expect(name.value).toBe("task_goal");
  });

  it("says under the field what is wrong with the name as it is typed, and marks the field invalid", async () => {
    const { platform } = await renderPanel();
    await click(byTestId("add-param"));
    const name = nameField("param");
    const problem = byTestId("param-name-problem", row("param"));
    expect(name.getAttribute("aria-invalid")).toBe("false");
    expect(name.hasAttribute("aria-describedby")).toBe(false);
    expect(problem.getAttribute("aria-live")).toBe("polite");

    typeInto(name, "my tone");

    await settle();
    expect(problemOf("param")).toBe("A name has no spaces: join words with _");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(name.getAttribute("aria-describedby")).toBe(problem.id);
    expect(problem.id).not.toBe("");

    typeInto(name, "${tone}");

    await settle();
    expect(problemOf("param")).toBe("A name is written without $ or braces: write 'tone' for '${tone}'");
    typeInto(name, "2nd");
    await settle();
    expect(problemOf("param")).toBe("A name starts with a letter or _, not '2'");
    typeInto(name, "objective");
    await settle();
    expect(problemOf("param")).toBe("Another parameter already has the name 'objective'");
    typeInto(name, "");
    await settle();
    expect(problemOf("param")).toBe("A parameter needs a name: letters, digits and _, not starting with a digit");
    keyDown(name, "Enter");
    await settle();

    typeInto(name, "tone");

    await settle();
    expect(problemOf("param")).toBe("");
    expect(name.getAttribute("aria-invalid")).toBe("false");
    expect(name.hasAttribute("aria-describedby")).toBe(false);
    // Only the added parameter was sent: nothing while the name was invalid.
    expect(edits(platform)).toEqual([[{ op: "set_param", name: "param", value: "" }, null]]);
  });

  it("puts back the name on Escape, valid or not, and sends nothing", async () => {
    const { platform } = await renderPanel();
    const name = nameField("objective");
    await moveFocus(name);
    typeInto(name, "bad name");
    await settle();
    keyDown(name, "Escape");
    await settle();
    expect(name.value).toBe("objective");
    expect(problemOf("objective")).toBe("");
    expect(name.getAttribute("aria-invalid")).toBe("false");
    typeInto(name, "goal");
    await settle();
    keyDown(name, "Escape");
    await settle();
    expect(name.value).toBe("objective");
    await moveFocus(valueField("objective"));
    expect(edits(platform)).toEqual([]);
    expect(paramNames()).toEqual(["objective"]);
  });

  it("puts back the name when the field is left with an invalid one, sends nothing, and the focus goes where sent", async () => {
    const { platform, store } = await renderPanel();
    await click(byTestId("add-param"));
    const name = nameField("param");
    await moveFocus(name);
    typeInto(name, "objective");
    await settle();
    const value = valueField("param");
    await moveFocus(value);
    expect(name.value).toBe("param");
    expect(problemOf("param")).toBe("");
    await moveFocus(name);
    typeInto(name, "1st");
    await settle();
    keyDown(name, "Tab");
    await settle();
    await moveFocus(value);
    expect(name.value).toBe("param");
    expect(edits(platform)).toEqual([[{ op: "set_param", name: "param", value: "" }, null]]);
    expect(store.getState().failure).toBeNull();
    expect(document.activeElement).toBe(value);
  });
});

describe("paramRowKeys", () => {
  it("keys a parameter by its name", () => {
    expect(paramRowKeys(["a", "b"], [])).toEqual(["a", "b"]);
  });

  it("keeps the row of a renamed parameter, before the backend answers and after", () => {
    const carried = [{ name: "goal", key: "objective" }];
    expect(paramRowKeys(["objective", "x"], carried)).toEqual(["objective", "x"]);
    expect(paramRowKeys(["goal", "x"], carried)).toEqual(["objective", "x"]);
  });

  it("follows a parameter renamed twice, and one renamed back", () => {
    const carried = [
      { name: "b", key: "a" },
      { name: "c", key: "a" },
    ];
    expect(paramRowKeys(["c"], carried)).toEqual(["a"]);
    expect(paramRowKeys(["a"], [...carried, { name: "a", key: "a" }])).toEqual(["a"]);
  });

  it("gives a parameter added again under a name renamed away a row of its own", () => {
    const carried = [{ name: "goal", key: "objective" }];
    expect(paramRowKeys(["goal", "objective"], carried)).toEqual(["objective", "objective#2"]);
    expect(paramRowKeys(["objective", "goal"], carried)).toEqual(["objective#2", "objective"]);
    // Two names claiming one row: the later rename has it.
    const twice = [
      { name: "b", key: "a" },
      { name: "c", key: "a" },
    ];
    expect(paramRowKeys(["b", "c"], twice)).toEqual(["b", "a"]);
  });

  it("never gives two rows one key", () => {
    const carried = [
      { name: "b", key: "a" },
      { name: "a", key: "b" },
      { name: "c", key: "a#2" },
    ];
    const keys = paramRowKeys(["a", "b", "c", "d"], carried);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
