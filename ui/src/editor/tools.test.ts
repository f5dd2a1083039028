// Tests for tools.ts: removing, moving and appending a section's tools, refused positions, and which
// imported tools can be attached.
import { describe, expect, it } from "vitest";
import { exampleTemplate } from "../testing/fakePlatform";
import { appendToolEdit, attachable, moveToolEdit, removeToolEdit } from "./tools";

const owner = { kind: "section", path: "context" };

describe("tool edits", () => {
  const template = exampleTemplate(); // context has search, cite

  it("removes a tool at its index", () => {
    expect(removeToolEdit(template, "context", 1)).toEqual({ edit: { op: "remove_tool", owner, index: 1 }, group: null });
    expect(removeToolEdit(template, "context", 2)).toBeNull();
    expect(removeToolEdit(template, "nowhere", 0)).toBeNull();
  });

  it.each([
    [0, 1, { from: 0, to: 1 }],
    [1, -1, { from: 1, to: 0 }],
    [0, -1, null],
    [1, 1, null],
  ] as const)("moves tool %i by %i", (index, step, expected) => {
    const request = moveToolEdit(template, "context", index, step);
    expect(request).toEqual(expected === null ? null : { edit: { op: "move_tool", owner, ...expected }, group: null });
  });

  it("appends a tool after the section's last one", () => {
    const tool = { name: "fetch", description: "Fetch", parameters: { type: "object" } };
    expect(appendToolEdit(template, "context", tool)).toEqual({
      edit: { op: "insert_tool", owner, index: 2, tool },
      group: null,
    });
    expect(appendToolEdit(template, "task", tool)?.edit).toMatchObject({ index: 0, owner: { path: "task" } });
    expect(appendToolEdit(template, "nowhere", tool)).toBeNull();
  });

  it("attaches only the tools whose names the template does not have", () => {
    const tools = ["a", "lookup", "b"].map((name) => ({ name, description: "", parameters: {} }));
    expect(attachable(tools, ["lookup"]).map((tool) => tool.name)).toEqual(["a", "b"]);
  });
});
