// Tests for dropTarget.ts: the part of a row the pointer picks, which drops are possible, and the
// exact MoveSection edit a drop makes, checked by applying it as the backend does (the index counted
// once the section left its place) and reading the tree: it lands where the indicator showed.
import { describe, expect, it } from "vitest";
import type { Section, Template, TemplateEdit } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import { dropPosition, dropRequest, dropTargetAt, type DropPosition } from "./dropTarget";
import { treeRows } from "./tree";
import { childPath, keyOf, parentPath, sectionAt } from "../shared/template";

const ROW = 30;

/** The children list at `parent` (`null`: the top level). */
function childrenOf(template: Template, parent: string | null): Section[] {
  if (parent === null) return template.sections;
  const section = sectionAt(template, parent);
  if (section === undefined) throw new Error(`no section ${parent}`);
  return section.children;
}

/** The tree's paths after `edit` moved a section the way the backend's move_section does. */
function pathsAfter(template: Template, edit: TemplateEdit): string[] {
  if (edit.op !== "move_section") throw new Error(`not a move: ${edit.op}`);
  const copy = structuredClone(template);
  const from = childrenOf(copy, parentPath(edit.path));
  const [section] = from.splice(
    from.findIndex((s) => s.key === keyOf(edit.path)),
    1,
  );
  if (section === undefined) throw new Error(`no section ${edit.path}`);
  const to = childrenOf(copy, edit.parent ?? null);
  if (edit.index > to.length) throw new Error(`no position ${String(edit.index)}`);
  to.splice(edit.index, 0, section);
  return treeRows(copy).map((row) => row.path);
}

/** The tree after dropping `dragged` on `position` of `target`, and the section then selected. */
function drop(dragged: string, target: string, position: DropPosition, template = exampleTemplate()) {
  const request = dropRequest(template, dragged, { path: target, position });
  if (request === null) return null;
  return { edit: request.edit, paths: pathsAfter(template, request.edit), select: request.select };
}

// The example: task, context (examples, history), style.

describe("dropPosition", () => {
  it.each([
    [0, "before"],
    [9.9, "before"],
    [10, "inside"],
    [19.9, "inside"],
    [20, "after"],
    [29.9, "after"],
  ])("%d px into a 30 px row is %s", (offset, position) => {
    expect(dropPosition(offset, ROW)).toBe(position);
  });
});

describe("dropRequest", () => {
  it("moves down within the same parent, counting the index once the section left its place", () => {
    expect(drop("task", "style", "after")).toEqual({
      edit: { op: "move_section", path: "task", parent: null, index: 2 },
      paths: ["context", "context.examples", "context.history", "style", "task"],
      select: "task",
    });
    expect(drop("task", "style", "before")).toEqual({
      edit: { op: "move_section", path: "task", parent: null, index: 1 },
      paths: ["context", "context.examples", "context.history", "task", "style"],
      select: "task",
    });
  });

  it("moves up within the same parent", () => {
    expect(drop("style", "task", "before")).toMatchObject({
      edit: { op: "move_section", path: "style", parent: null, index: 0 },
      paths: ["style", "task", "context", "context.examples", "context.history"],
    });
    expect(drop("style", "task", "after")).toMatchObject({
      edit: { op: "move_section", path: "style", parent: null, index: 1 },
      paths: ["task", "style", "context", "context.examples", "context.history"],
    });
  });

  it("moves inside a section as its last subsection, also into one without any", () => {
    expect(drop("task", "context", "inside")).toEqual({
      edit: { op: "move_section", path: "task", parent: "context", index: 2 },
      paths: ["context", "context.examples", "context.history", "context.task", "style"],
      select: "context.task",
    });
    expect(drop("task", "style", "inside")).toMatchObject({
      edit: { op: "move_section", path: "task", parent: "style", index: 0 },
      paths: ["context", "context.examples", "context.history", "style", "style.task"],
      select: "style.task",
    });
    // Already a subsection of it, but not the last one.
    expect(drop("context.examples", "context", "inside")).toMatchObject({
      edit: { op: "move_section", path: "context.examples", parent: "context", index: 1 },
      paths: ["task", "context", "context.history", "context.examples", "style"],
    });
  });

  it("moves between levels, with its subsections", () => {
    expect(drop("style", "context.history", "before")).toMatchObject({
      edit: { op: "move_section", path: "style", parent: "context", index: 1 },
      paths: ["task", "context", "context.examples", "context.style", "context.history"],
      select: "context.style",
    });
    expect(drop("context.history", "style", "after")).toMatchObject({
      edit: { op: "move_section", path: "context.history", parent: null, index: 3 },
      paths: ["task", "context", "context.examples", "style", "history"],
      select: "history",
    });
    expect(drop("context", "task", "inside")).toMatchObject({
      edit: { op: "move_section", path: "context", parent: "task", index: 0 },
      paths: ["task", "task.context", "task.context.examples", "task.context.history", "style"],
      select: "task.context",
    });
  });

  it.each<[string, DropPosition]>([
    ["context", "before"],
    ["context", "inside"],
    ["context", "after"],
    ["context.examples", "before"],
    ["context.examples", "inside"],
    ["context.history", "after"],
  ])("refuses to drop context into itself or its subsections (%s, %s)", (target, position) => {
    expect(drop("context", target, position)).toBeNull();
  });

  it("tells a subsection from a sibling whose key starts the same", () => {
    const template = exampleTemplate();
    template.sections.push({ ...structuredClone(template.sections[0] as Section), key: "context2" });
    expect(drop("context", "context2", "inside", template)).toMatchObject({
      edit: { op: "move_section", path: "context", parent: "context2", index: 0 },
    });
  });

  it.each<[string, string, DropPosition]>([
    ["task", "context", "before"],
    ["context", "task", "after"],
    ["context.history", "context", "inside"],
    ["context.history", "context.examples", "after"],
    ["context.examples", "context.history", "before"],
  ])("makes no edit when %s would stay where it is (%s, %s)", (dragged, target, position) => {
    expect(drop(dragged, target, position)).toBeNull();
  });

  it("makes no edit for a section or a target that is not there", () => {
    expect(drop("gone", "task", "after")).toBeNull();
    expect(drop("task", "gone", "after")).toBeNull();
    expect(drop("task", "gone", "inside")).toBeNull();
  });

  it("selects the moved section at its new path", () => {
    const request = dropRequest(exampleTemplate(), "context.examples", { path: "style", position: "inside" });
    expect(request?.select).toBe(childPath("style", "examples"));
    expect(request?.added).toBe(false);
    expect(request?.group).toBeNull();
  });
});

describe("dropTargetAt", () => {
  const template = exampleTemplate();
  const rows = treeRows(template);
  // Rows (30 px each): 0 task, 1 context, 2 context.examples, 3 context.history, 4 style.

  it("picks the row under the pointer and the third of it the pointer is in", () => {
    expect(dropTargetAt(template, rows, "style", 5, ROW)).toEqual({ path: "task", position: "before" });
    expect(dropTargetAt(template, rows, "style", 45, ROW)).toEqual({ path: "context", position: "inside" });
    expect(dropTargetAt(template, rows, "task", 85, ROW)).toEqual({ path: "context.examples", position: "after" });
  });

  it("offers nothing above the first row or below the last one", () => {
    expect(dropTargetAt(template, rows, "style", -1, ROW)).toBeNull();
    expect(dropTargetAt(template, rows, "task", 5 * ROW, ROW)).toBeNull();
  });

  it("offers nothing over the dragged section or its subsections", () => {
    expect(dropTargetAt(template, rows, "context", 45, ROW)).toBeNull();
    expect(dropTargetAt(template, rows, "context", 75, ROW)).toBeNull();
    expect(dropTargetAt(template, rows, "context", 115, ROW)).toBeNull();
  });

  it("offers nothing where the drop would change nothing", () => {
    // The top of context: before context, where task already is.
    expect(dropTargetAt(template, rows, "task", 35, ROW)).toBeNull();
    expect(dropTargetAt(template, rows, "task", 45, ROW)).toEqual({ path: "context", position: "inside" });
  });
});
