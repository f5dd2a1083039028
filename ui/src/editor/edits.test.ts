// Tests for edits.ts: the exact edits (and undo groups) the editor sends for toggles, text fields
// and renames, the key check (the core's rule, said in words), and path arithmetic after a rename
// or a move.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  fieldGroup,
  pathChange,
  rebasePath,
  renamedPath,
  renameEdit,
  sectionKeyProblem,
  setFieldEdit,
  siblingKeys,
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

  it("never sends a key the core would refuse", () => {
    expect(renameEdit(exampleTemplate(), "task", "Bad Key")).toBeNull();
    expect(renameEdit(exampleTemplate(), "task", "")).toBeNull();
    expect(renameEdit(exampleTemplate(), "task", "_task")).toBeNull();
    expect(renameEdit(exampleTemplate(), "task", "style")).toBeNull();
    expect(renameEdit(exampleTemplate(), "context.history", "examples")).toBeNull();
  });

  it("takes a key a section elsewhere has", () => {
    expect(renameEdit(exampleTemplate(), "context.history", "task")?.edit).toEqual({
      op: "rename_section",
      path: "context.history",
      key: "task",
    });
  });

  it("does nothing for the same key or a missing section", () => {
    expect(renameEdit(exampleTemplate(), "task", "task ")).toBeNull();
    expect(renameEdit(exampleTemplate(), "gone", "x")).toBeNull();
  });
});

describe("sectionKeyProblem", () => {
  const RULE = "lowercase letters, digits, _ and -, starting with a letter or a digit";

  it.each(["task", "a", "7", "0day", "step-2", "step_2", "a-", "a_", "a--b", "x1_y-z", " padded ", "\ttabbed\t"])(
    "takes %j",
    (key) => {
      expect(sectionKeyProblem(key, ["style", "context"])).toBeNull();
    },
  );

  it.each([
    ["", `A section needs a key: ${RULE}`],
    ["   ", `A section needs a key: ${RULE}`],
    ["Task", "A key is lowercase: write 't' for 'T'"],
    ["taSk", "A key is lowercase: write 's' for 'S'"],
    ["my key", "A key has no spaces: join words with - or _"],
    ["my\tkey", "A key has no spaces: join words with - or _"],
    ["a.b", "A key has no dots: a dot separates the keys of a section's path"],
    ["café", "A key has only lowercase letters, digits, _ and -, not 'é'"],
    ["émile", "A key has only lowercase letters, digits, _ and -, not 'é'"],
    ["a/b", "A key has only lowercase letters, digits, _ and -, not '/'"],
    ["a$b", "A key has only lowercase letters, digits, _ and -, not '$'"],
    ["a😀", "A key has only lowercase letters, digits, _ and -, not '😀'"],
    ["ＡＢ", "A key has only lowercase letters, digits, _ and -, not 'Ａ'"],
    ["_task", "A key starts with a lowercase letter or a digit, not '_'"],
    ["-task", "A key starts with a lowercase letter or a digit, not '-'"],
    ["_", "A key starts with a lowercase letter or a digit, not '_'"],
    ["-", "A key starts with a lowercase letter or a digit, not '-'"],
  ])("refuses %j: %s", (key, problem) => {
    expect(sectionKeyProblem(key, [])).toBe(problem);
  });

  it("names the first thing wrong", () => {
    expect(sectionKeyProblem("_My key", [])).toBe("A key is lowercase: write 'm' for 'M'");
    expect(sectionKeyProblem("-a b", [])).toBe("A key has no spaces: join words with - or _");
  });

  it("refuses a key a sibling has, after dropping surrounding spaces", () => {
    expect(sectionKeyProblem("style", ["context", "style"])).toBe(
      "Another section at this level already has the key 'style'",
    );
    expect(sectionKeyProblem(" style ", ["style"])).toBe("Another section at this level already has the key 'style'");
    expect(sectionKeyProblem("styles", ["style"])).toBeNull();
  });

  it("never shows the rule as a pattern", () => {
    for (const key of ["", "A", "a b", "a.b", "é", "_a", "dup"]) {
      expect(sectionKeyProblem(key, ["dup"])).not.toMatch(/[[\]^$*+]/);
    }
  });
});

describe("siblingKeys", () => {
  it("lists the keys beside a section, not its own", () => {
    expect(siblingKeys(exampleTemplate(), "task")).toEqual(["context", "style"]);
    expect(siblingKeys(exampleTemplate(), "context.history")).toEqual(["examples"]);
  });

  it("is empty for a section alone or gone", () => {
    const template = exampleTemplate();
    template.sections = template.sections.slice(0, 1);
    expect(siblingKeys(template, "task")).toEqual([]);
    expect(siblingKeys(exampleTemplate(), "gone.away")).toEqual([]);
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
