// Tests for tools.ts: removing, moving, appending, adding and replacing the tools of a section or of
// the template, refused positions, free names for new tools, which imported tools can be attached,
// and which tool the editor follows when its list changes.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  addToolEdit,
  appendToolEdit,
  attachable,
  followTool,
  freeToolName,
  moveToolEdit,
  removeToolEdit,
  replaceToolEdit,
  sectionOwner,
  TEMPLATE_OWNER,
} from "./tools";

const owner = sectionOwner("context");

describe("tool edits", () => {
  const template = exampleTemplate(); // lookup; context has search, cite

  it("removes a tool at its index", () => {
    expect(removeToolEdit(template, owner, 1)).toEqual({ edit: { op: "remove_tool", owner, index: 1 }, group: null });
    expect(removeToolEdit(template, owner, 2)).toBeNull();
    expect(removeToolEdit(template, sectionOwner("nowhere"), 0)).toBeNull();
    expect(removeToolEdit(template, TEMPLATE_OWNER, 0)?.edit).toEqual({
      op: "remove_tool",
      owner: { kind: "template" },
      index: 0,
    });
  });

  it.each([
    [0, 1, { from: 0, to: 1 }],
    [1, -1, { from: 1, to: 0 }],
    [0, -1, null],
    [1, 1, null],
  ] as const)("moves tool %i by %i", (index, step, expected) => {
    const request = moveToolEdit(template, owner, index, step);
    expect(request).toEqual(expected === null ? null : { edit: { op: "move_tool", owner, ...expected }, group: null });
  });

  it("appends a tool after the list's last one", () => {
    const tool = { name: "fetch", description: "Fetch", parameters: { type: "object" } };
    expect(appendToolEdit(template, owner, tool)).toEqual({
      edit: { op: "insert_tool", owner, index: 2, tool },
      group: null,
    });
    expect(appendToolEdit(template, sectionOwner("task"), tool)?.edit).toMatchObject({
      index: 0,
      owner: { path: "task" },
    });
    expect(appendToolEdit(template, TEMPLATE_OWNER, tool)?.edit).toMatchObject({ index: 1 });
    expect(appendToolEdit(template, sectionOwner("nowhere"), tool)).toBeNull();
  });

  it("adds a blank, valid tool under the first name no tool of the template has", () => {
    expect(addToolEdit(template, TEMPLATE_OWNER)).toEqual({
      edit: {
        op: "insert_tool",
        owner: TEMPLATE_OWNER,
        index: 1,
        tool: { name: "new_tool", description: "", parameters: { type: "object", properties: {} } },
      },
      group: null,
    });
    const withNew: Template = structuredClone(template);
    withNew.tools.push({ name: "new_tool", description: "", parameters: {} });
    withNew.sections[1]?.children[0]?.tools.push({ name: "new_tool_2", description: "", parameters: {} });
    expect(freeToolName(withNew)).toBe("new_tool_3");
  });

  it("replaces a tool, grouping the changes to one tool, and sends nothing unchanged", () => {
    const cite = template.sections[1]?.tools[1];
    if (cite === undefined) throw new Error("no cite");
    const changed = { ...cite, description: "Cite a source" };
    expect(replaceToolEdit(template, owner, 1, changed)).toEqual({
      edit: { op: "replace_tool", owner, index: 1, tool: changed },
      group: "tool/section:context/1",
    });
    expect(replaceToolEdit(template, TEMPLATE_OWNER, 0, changed)?.group).toBe("tool/template/0");
    expect(replaceToolEdit(template, owner, 1, cite)).toBeNull();
    expect(replaceToolEdit(template, owner, 2, changed)).toBeNull();
  });

  it("attaches only the tools whose names the template does not have", () => {
    const tools = ["a", "lookup", "b"].map((name) => ({ name, description: "", parameters: {} }));
    expect(attachable(tools, ["lookup"]).map((tool) => tool.name)).toEqual(["a", "b"]);
  });
});

describe("the tool the editor follows", () => {
  it.each([
    [2, { kind: "remove", index: 2 }, null],
    [2, { kind: "remove", index: 0 }, 1],
    [2, { kind: "remove", index: 3 }, 2],
    [2, { kind: "move", from: 2, to: 3 }, 3],
    [3, { kind: "move", from: 2, to: 3 }, 2],
    [2, { kind: "move", from: 3, to: 2 }, 3],
    [0, { kind: "move", from: 2, to: 3 }, 0],
    [null, { kind: "remove", index: 0 }, null],
  ] as const)("at %s after %o is at %s", (open, change, expected) => {
    expect(followTool(open, change)).toBe(expected);
  });
});
