// Renders the editor in happy-dom over the fake platform to test the tool lists and the tool editor:
// opening a section's tool, JSON syntax errors shown at once at their line and column, the backend's
// problems after a pause in typing, applying a tool only when it has none (one undo step), "New tool"
// under a free name, and the template's own tools in the Template tab.
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import { FakePlatform } from "../testing/fakePlatform";
import { EditorStore } from "./store";
import { byLabel, byTestId, click, settle, typeInto, valueOf } from "../testing/dom";
import { renderWindow } from "../testing/editPage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** Longer than the pause after which the tool editor checks what was typed. */
const PAUSE_MS = 200;

async function renderEditor(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: EditorStore }> {
  const store = (await renderWindow(root, platform)).editor;
  await settle();
  return { platform, store };
}

function problems(): string[] {
  return [...byTestId("tool-problems").querySelectorAll("li")].map((li) => li.textContent);
}

/** The problems listed under the parameters' field. */
function parameterProblems(): string[] {
  return [...byTestId("tool-parameters-problems").querySelectorAll("li")].map((li) => li.textContent);
}

function toolEdits(platform: FakePlatform): unknown[] {
  return platform.argsOf("applyEdit").filter(([, edit]) => (edit as { op: string }).op.endsWith("_tool"));
}

async function openContextTool(name: string): Promise<void> {
  const row = container.querySelector<HTMLElement>('[data-testid="section-row"][data-path="context"]');
  if (row === null) throw new Error("no context row");
  await click(byTestId("select-section", row));
  await click(byLabel(`Edit ${name}`));
}

describe("the tool editor", () => {
  it("opens a section's tool with its fields", async () => {
    await renderEditor();
    await openContextTool("cite");
    const editor = byTestId("tool-editor");
    expect((byTestId("tool-name", editor) as HTMLInputElement).value).toBe("cite");
    expect((byTestId("tool-description", editor) as HTMLTextAreaElement).value).toBe("cite things");
    expect(JSON.parse(valueOf(byTestId("tool-parameters", editor)))).toEqual({ type: "object" });
    expect(byTestId("tool-problems").textContent).toBe("No problems");
    expect(container.querySelector('[data-testid="tool-parameters-problems"]')).toBeNull();
    await click(byTestId("tool-close"));
    expect(container.querySelector('[data-testid="tool-editor"]')).toBeNull();
  });

  it("lists a draft that is not applied in the Problems panel until it is fixed or closed", async () => {
    await renderEditor();
    const toolGroups = () =>
      [...container.querySelectorAll<HTMLElement>('[data-testid="problem-group"][data-group="tool"]')].map(
        (group) => group.textContent,
      );
    await openContextTool("search");
    typeInto(byTestId("tool-parameters"), '{"type": "object",,}');
    expect(toolGroups()).toEqual([
      expect.stringMatching(/^Tool 'search' in the tool editor: not applied until these are fixed\/parameters line 1/),
    ]);
    typeInto(byTestId("tool-parameters"), '{"type": "object"}');
    await settle(PAUSE_MS);
    expect(toolGroups()).toEqual([]);
    typeInto(byTestId("tool-parameters"), '{"type":');
    expect(toolGroups()).toHaveLength(1);
    await click(byTestId("tool-close"));
    expect(toolGroups()).toEqual([]);
    expect(byTestId("problems-panel").textContent).toBe("Problems No problems");
  });

  it("shows a JSON syntax error at once, at its line and column, and applies nothing", async () => {
    const { platform } = await renderEditor();
    await openContextTool("search");
    // The tool as opened may have been checked already, on a slow machine: only what follows counts.
    const checked = platform.argsOf("checkTool").length;
    typeInto(byTestId("tool-parameters"), '{\n  "type": "object",\n  "properties": {,}\n}');
    expect(parameterProblems()).toEqual(["/parameters line 3, column 18: expected a property name in double quotes"]);
    expect(container.querySelector('[data-testid="tool-problems"]')).toBeNull();
    expect(byTestId("tool-status").textContent).toBe("Not applied: the JSON does not parse");
    await settle(PAUSE_MS);
    expect(platform.argsOf("checkTool")).toHaveLength(checked);
    expect(toolEdits(platform)).toEqual([]);
  });

  it("checks what was typed after a pause, lists the backend's problems and applies nothing", async () => {
    const { platform } = await renderEditor();
    await openContextTool("search");
    // The tool as opened may have been checked already, on a slow machine: only what follows counts.
    const checked = platform.argsOf("checkTool").length;
    typeInto(byTestId("tool-name"), "lookup");
    expect(platform.argsOf("checkTool")).toHaveLength(checked);
    await settle(PAUSE_MS);
    const calls = platform.argsOf("checkTool").slice(checked) as [number, unknown, number, string][];
    expect(calls).toHaveLength(1);
    const [[id, owner, index, json]] = calls as [[number, unknown, number, string]];
    expect([id, owner, index]).toEqual([1, { kind: "section", path: "context" }, 0]);
    expect(JSON.parse(json)).toEqual({ name: "lookup", description: "search things", parameters: { type: "object" } });
    expect(problems()).toEqual(["/name the template already has a tool named 'lookup' (among its own tools)"]);
    expect(byTestId("tool-status").textContent).toBe("Not applied: 1 problem");
    expect((byTestId("tool-apply") as HTMLButtonElement).disabled).toBe(true);
    expect(toolEdits(platform)).toEqual([]);
  });

  it("applies a tool without problems as one undo step, and undo brings the old tool back", async () => {
    const { platform } = await renderEditor();
    await openContextTool("search");
    typeInto(byTestId("tool-description"), "Search the docs.");
    await settle(PAUSE_MS);
    typeInto(byTestId("tool-parameters"), '{"type": "object", "required": ["q"]}');
    await settle(PAUSE_MS);
    expect(toolEdits(platform)).toEqual([
      [
        1,
        {
          op: "replace_tool",
          owner: { kind: "section", path: "context" },
          index: 0,
          tool: { name: "search", description: "Search the docs.", parameters: { type: "object" } },
        },
        "tool/section:context/0",
      ],
      [
        1,
        {
          op: "replace_tool",
          owner: { kind: "section", path: "context" },
          index: 0,
          tool: { name: "search", description: "Search the docs.", parameters: { type: "object", required: ["q"] } },
        },
        "tool/section:context/0",
      ],
    ]);
    expect(byTestId("tool-status").textContent).toBe("Applied to the template");
    expect(byTestId("section-tool").textContent).toContain("Search the docs.");
    await click(byTestId("undo-button"));
    expect(byTestId("section-tool").textContent).toContain("search things");
    expect((byTestId("tool-description") as HTMLTextAreaElement).value).toBe("search things");
  });

  it("is a code field for the parameters, with the schema's problems under it at their place", async () => {
    const platform = new FakePlatform();
    const checkTool = platform.checkTool.bind(platform);
    // The core reports a schema problem at its JSON pointer inside `parameters`.
    platform.checkTool = (...args: Parameters<typeof checkTool>) => {
      const json = args[3];
      if (json.includes('"colour"')) {
        return Promise.resolve({
          ok: true,
          value: [{ location: "/parameters/properties/style/type", message: '"colour" is not a valid type' }],
        });
      }
      return checkTool(...args);
    };
    await renderEditor(platform);
    await openContextTool("search");
    const field = byTestId("tool-parameters");
    expect(field.classList.contains("cm-content")).toBe(true);
    expect(field.closest(".code-field")).not.toBeNull();
    typeInto(field, '{"type": "object", "properties": {"style": {"type": "colour"}}}');
    await settle(PAUSE_MS);
    expect(parameterProblems()).toEqual(['/parameters/properties/style/type "colour" is not a valid type']);
    const list = byTestId("tool-parameters-problems");
    expect(field.getAttribute("aria-describedby")).toBe(list.parentElement?.id);
    expect(container.querySelector('[data-testid="tool-problems"]')).toBeNull();
    expect(byTestId("tool-status").textContent).toBe("Not applied: 1 problem");
    const apply = byTestId("tool-apply") as HTMLButtonElement;
    expect([apply.textContent, apply.disabled, apply.title]).toEqual(["Apply", true, "Fix the tool's problems first"]);
    expect(toolEdits(platform)).toEqual([]);
  });

  it("says Apply and Revert, disabled with the reason, while there is nothing to apply", async () => {
    const { platform } = await renderEditor();
    await openContextTool("search");
    const apply = byTestId("tool-apply") as HTMLButtonElement;
    const revert = byTestId("tool-revert") as HTMLButtonElement;
    await settle(PAUSE_MS);
    expect([apply.textContent, apply.disabled, apply.title]).toEqual([
      "Apply",
      true,
      "Nothing to apply: the tool is as the template has it",
    ]);
    expect([revert.textContent, revert.disabled, revert.title]).toEqual([
      "Revert",
      true,
      "Nothing to revert: the tool is as the template has it",
    ]);
    // Nothing happened yet: no confirmation.
    expect(byTestId("tool-status").textContent).toBe("");
    typeInto(byTestId("tool-description"), "Search the docs.");
    expect([apply.disabled, revert.disabled]).toEqual([false, false]);
    expect(revert.title).toBe("Back to the tool as the template has it");
    await click(apply);
    expect(toolEdits(platform)).toHaveLength(1);
    // Applied: the buttons keep their names, disabled, and the confirmation is beside them.
    expect([apply.textContent, apply.disabled, revert.textContent, revert.disabled]).toEqual([
      "Apply",
      true,
      "Revert",
      true,
    ]);
    expect(byTestId("tool-status").textContent).toBe("Applied to the template");
  });

  it("applies at once with Apply, without waiting for the pause", async () => {
    const { platform } = await renderEditor();
    await openContextTool("cite");
    typeInto(byTestId("tool-name"), "quote");
    await click(byTestId("tool-apply"));
    expect(toolEdits(platform)).toMatchObject([
      [1, { op: "replace_tool", index: 1, tool: { name: "quote" } }, "tool/section:context/1"],
    ]);
    expect(byLabel("Edit quote")).toBeTruthy();
  });

  it("adds a new tool under a free name and opens it; the editor follows its tool when moved", async () => {
    const { platform } = await renderEditor();
    await openContextTool("search");
    await click(byTestId("new-tool"));
    expect(toolEdits(platform)).toMatchObject([
      [
        1,
        { op: "insert_tool", index: 2, tool: { name: "new_tool", parameters: { type: "object", properties: {} } } },
        null,
      ],
    ]);
    expect((byTestId("tool-name") as HTMLInputElement).value).toBe("new_tool");
    await click(byLabel("Move new_tool up"));
    expect((byTestId("tool-name") as HTMLInputElement).value).toBe("new_tool");
    await click(byLabel("Remove new_tool"));
    expect(container.querySelector('[data-testid="tool-editor"]')).toBeNull();
  });
});

describe("the template's own tools", () => {
  it("are listed and edited in the Template tab", async () => {
    const { platform } = await renderEditor();
    await click(byTestId("tab-template"));
    const list = byTestId("template-tools");
    expect(
      [...list.querySelectorAll('[data-testid="template-tool"]')].map((li) => li.getAttribute("data-name")),
    ).toEqual(["lookup"]);
    await click(byLabel("Edit lookup"));
    typeInto(byTestId("tool-parameters"), '{"type": "string"}');
    await settle(PAUSE_MS);
    expect(parameterProblems()).toEqual(['/parameters must describe an object ("type": "object"), not "string"']);
    typeInto(byTestId("tool-parameters"), '{"type": "object", "properties": {"id": {"type": "integer"}}}');
    await settle(PAUSE_MS);
    expect(toolEdits(platform)).toMatchObject([
      [1, { op: "replace_tool", owner: { kind: "template" }, index: 0, tool: { name: "lookup" } }, "tool/template/0"],
    ]);
    expect(platform.template.tools[0]?.parameters).toEqual({ type: "object", properties: { id: { type: "integer" } } });
    await click(byTestId("new-tool"));
    expect(platform.template.tools.map((tool) => tool.name)).toEqual(["lookup", "new_tool"]);
  });
});
