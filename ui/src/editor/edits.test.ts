// Tests for edits.ts: the exact edits (and undo groups) the editor sends for toggles, text fields
// and renames, and path arithmetic after a rename or a move.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  fieldGroup,
  pathChange,
  rebasePath,
  renamedPath,
  renameEdit,
  setFieldEdit,
  setVisibilityEdit,
  toggleVisibilityEdit,
} from "./edits";

/** The example, whose `task` section has no summary (a file omits it: `summary` absent). */
function withBareTask(): Template {
  const template = exampleTemplate();
  const task = template.sections[0];
  if (task === undefined || "summary" in task) throw new Error("the task section should have no summary");
  return template;
}

describe("toggleVisibilityEdit", () => {
  it("shows a summarized section in full, keeping its other fields", () => {
    expect(toggleVisibilityEdit(exampleTemplate(), "context")).toEqual({
      edit: {
        op: "set_section_fields",
        path: "context",
        fields: {
          title: "Project Context",
          template: "Project Context body",
          summary: "Docs are available.",
          visibility: "full",
        },
      },
      group: null,
    });
  });

  it("summarizes a section without a summary with an empty one, so the edit is accepted", () => {
    expect(toggleVisibilityEdit(withBareTask(), "task")?.edit).toEqual({
      op: "set_section_fields",
      path: "task",
      fields: {
        title: "Task",
        template: "Complete the following: ${objective}",
        summary: "",
        visibility: "summary",
      },
    });
  });

  it("reaches nested sections and ignores missing ones", () => {
    expect(toggleVisibilityEdit(exampleTemplate(), "context.examples")?.edit).toMatchObject({
      path: "context.examples",
      fields: { visibility: "summary", summary: "" },
    });
    expect(toggleVisibilityEdit(exampleTemplate(), "nope")).toBeNull();
  });
});

describe("setVisibilityEdit", () => {
  it("does nothing when the section has that visibility already", () => {
    expect(setVisibilityEdit(exampleTemplate(), "task", "full")).toBeNull();
  });

  it("keeps no summary (null) when a section without one goes full", () => {
    const template = withBareTask();
    const task = template.sections[0];
    if (task === undefined) throw new Error("no task");
    task.visibility = "summary";
    expect(setVisibilityEdit(template, "task", "full")?.edit).toMatchObject({
      fields: { summary: null, visibility: "full" },
    });
  });
});

describe("setFieldEdit", () => {
  it.each([
    ["title", "Job", { title: "Job" }],
    ["template", "Do ${objective} now", { template: "Do ${objective} now" }],
    ["summary", "Short", { summary: "Short" }],
  ] as const)("sets %s in the field's own undo group", (field, value, changed) => {
    const request = setFieldEdit(exampleTemplate(), "task", field, value);
    expect(request).toEqual({
      edit: {
        op: "set_section_fields",
        path: "task",
        fields: {
          title: "Task",
          template: "Complete the following: ${objective}",
          summary: null,
          visibility: "full",
          ...changed,
        },
      },
      group: `task/${field}`,
    });
  });

  it("removes an emptied summary of a full section but keeps it for a summarized one", () => {
    expect(setFieldEdit(exampleTemplate(), "context.examples", "summary", "")).toBeNull();
    const full = exampleTemplate();
    const context = full.sections[1];
    if (context === undefined) throw new Error("no context");
    context.visibility = "full";
    expect(setFieldEdit(full, "context", "summary", "")?.edit).toMatchObject({ fields: { summary: null } });
    expect(setFieldEdit(exampleTemplate(), "context", "summary", "")?.edit).toMatchObject({
      fields: { summary: "", visibility: "summary" },
    });
  });

  it("does nothing when the value is unchanged or the section is gone", () => {
    expect(setFieldEdit(exampleTemplate(), "task", "title", "Task")).toBeNull();
    expect(setFieldEdit(exampleTemplate(), "gone", "title", "X")).toBeNull();
  });

  it("groups per section and field", () => {
    expect(fieldGroup("context.examples", "template")).toBe("context.examples/template");
  });
});

describe("renameEdit", () => {
  it("renames with the trimmed key", () => {
    expect(renameEdit(exampleTemplate(), "context.history", " past ")).toEqual({
      edit: { op: "rename_section", path: "context.history", key: "past" },
      group: null,
    });
  });

  it("leaves checking the key to the backend", () => {
    expect(renameEdit(exampleTemplate(), "task", "Bad Key")?.edit).toMatchObject({ key: "Bad Key" });
  });

  it("does nothing for the same key or a missing section", () => {
    expect(renameEdit(exampleTemplate(), "task", "task ")).toBeNull();
    expect(renameEdit(exampleTemplate(), "gone", "x")).toBeNull();
  });
});

describe("paths after a rename", () => {
  it.each([
    ["task", "job", "job"],
    ["context.history", "past", "context.past"],
  ])("%s renamed to %s is %s", (path, key, expected) => {
    expect(renamedPath(path, key)).toBe(expected);
  });

  it.each([
    ["context", "context", "docs", "docs"],
    ["context.history", "context", "docs", "docs.history"],
    ["contextual", "context", "docs", "contextual"],
    ["task", "context", "docs", "task"],
  ])("%s after %s became %s is %s", (path, from, to, expected) => {
    expect(rebasePath(path, from, to)).toBe(expected);
  });
});

describe("pathChange", () => {
  it("follows a rename", () => {
    expect(pathChange({ op: "rename_section", path: "context.history", key: "past" })).toEqual({
      from: "context.history",
      to: "context.past",
    });
  });

  it.each([
    [{ op: "move_section", path: "style", parent: "context", index: 2 }, "context.style"],
    [{ op: "move_section", path: "context.examples", parent: null, index: 2 }, "examples"],
    [{ op: "move_section", path: "context.examples", index: 2 }, "examples"],
    [{ op: "move_section", path: "context", parent: null, index: 0 }, "context"],
  ] as const)("follows %o to %s", (edit, to) => {
    expect(pathChange(edit)).toEqual({ from: edit.path, to });
  });

  it("is null for edits that move no section", () => {
    expect(pathChange({ op: "remove_section", path: "task" })).toBeNull();
    expect(pathChange({ op: "insert_section", parent: null, index: 0, section: { key: "x", title: "X" } })).toBeNull();
    expect(
      pathChange({
        op: "set_section_fields",
        path: "task",
        fields: { title: "Job", template: "", summary: null, visibility: "full" },
      }),
    ).toBeNull();
  });
});
