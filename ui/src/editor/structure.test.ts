// Tests for structure.ts: free keys, the exact edit and the next selection of every structural
// action, and which actions are impossible where a section stands.
import { describe, expect, it } from "vitest";
import type { Section, Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  canRestructure,
  freeKey,
  newSection,
  placeOf,
  structureRequest,
  type StructureAction,
  type StructureRequest,
} from "./structure";
import { treeRows } from "./tree";

const ACTIONS: StructureAction[] = ["add_child", "add_sibling", "delete", "move_up", "move_down", "indent", "outdent"];

function bare(key: string, children: Section[] = []): Section {
  return { key, title: key, template: "", visibility: "full", tools: [], children };
}

/** The example with `context.examples` holding a subsection `deep` (three levels). */
function deeper(): Template {
  const template = exampleTemplate();
  template.sections[1]?.children[0]?.children.push(bare("deep"));
  return template;
}

function check(
  template: Template,
  selected: string | null,
  action: StructureAction,
  expected: Partial<StructureRequest> | null,
) {
  const request = structureRequest(template, selected, action);
  if (expected === null) expect(request).toBeNull();
  else expect(request).toEqual({ group: null, added: false, ...expected });
}

describe("freeKey", () => {
  it.each([
    [[], "section"],
    [["task"], "section"],
    [["section"], "section-2"],
    [["section", "section-2"], "section-3"],
    [["section-2"], "section"],
    [["section", "section-3"], "section-2"],
  ])("among %j is %s", (keys, key) => {
    expect(freeKey(keys.map((k) => ({ key: k })))).toBe(key);
  });
});

describe("newSection", () => {
  it("is titled, empty, shown in full, without tools or subsections", () => {
    expect(newSection("section-2")).toEqual({
      key: "section-2",
      title: "New section",
      template: "",
      visibility: "full",
      tools: [],
      children: [],
    });
  });
});

describe("placeOf", () => {
  it("finds a section's parent and index", () => {
    expect(placeOf(exampleTemplate(), "style")).toMatchObject({ parent: null, index: 2 });
    expect(placeOf(exampleTemplate(), "context.history")).toMatchObject({ parent: "context", index: 1 });
  });

  it.each(["nope", "context.nope", "nope.history", "task.examples"])("finds nothing at %s", (path) => {
    expect(placeOf(exampleTemplate(), path)).toBeUndefined();
  });
});

describe("add child", () => {
  it("adds the last subsection with a free key, selected and ready to rename", () => {
    check(exampleTemplate(), "style", "add_child", {
      edit: { op: "insert_section", parent: "style", index: 0, section: newSection("section") },
      select: "style.section",
      added: true,
    });
    check(exampleTemplate(), "context", "add_child", {
      edit: { op: "insert_section", parent: "context", index: 2, section: newSection("section") },
      select: "context.section",
      added: true,
    });
  });

  it("takes the next free key when `section` is taken among the children", () => {
    const template = exampleTemplate();
    template.sections[2]?.children.push(bare("section"), bare("section-2"));
    expect(structureRequest(template, "style", "add_child")).toMatchObject({
      edit: { index: 2, section: { key: "section-3" } },
      select: "style.section-3",
    });
  });
});

describe("add sibling", () => {
  it("adds a section right after the selected one, at its level", () => {
    check(exampleTemplate(), "task", "add_sibling", {
      edit: { op: "insert_section", parent: null, index: 1, section: newSection("section") },
      select: "section",
      added: true,
    });
    check(exampleTemplate(), "context.examples", "add_sibling", {
      edit: { op: "insert_section", parent: "context", index: 1, section: newSection("section") },
      select: "context.section",
      added: true,
    });
  });

  it("takes a key free among the siblings, not the children", () => {
    const template = exampleTemplate();
    template.sections[1]?.children.push(bare("section"));
    expect(structureRequest(template, "context.history", "add_sibling")?.select).toBe("context.section-2");
    expect(structureRequest(template, "context", "add_sibling")?.select).toBe("section");
  });

  it("adds a top-level section at the end when nothing is selected (an empty template)", () => {
    check({ ...exampleTemplate(), sections: [] }, null, "add_sibling", {
      edit: { op: "insert_section", parent: null, index: 0, section: newSection("section") },
      select: "section",
      added: true,
    });
    expect(structureRequest(exampleTemplate(), null, "add_sibling")?.edit).toMatchObject({ index: 3 });
  });
});

describe("delete", () => {
  it.each([
    ["context.examples", "context.history"],
    ["task", "context"],
    ["context", "style"],
    ["context.history", "context.examples"],
    ["style", "context"],
    ["context.examples.deep", "context.examples"],
  ])("removes %s and selects %s (next sibling, else previous, else parent)", (path, select) => {
    check(deeper(), path, "delete", { edit: { op: "remove_section", path }, select });
  });

  it("selects nothing after removing the only section", () => {
    check({ ...exampleTemplate(), sections: [bare("only")] }, "only", "delete", {
      edit: { op: "remove_section", path: "only" },
      select: null,
    });
  });
});

describe("move up and down", () => {
  it("moves among siblings and keeps the section selected", () => {
    check(exampleTemplate(), "context", "move_up", {
      edit: { op: "move_section", path: "context", parent: null, index: 0 },
      select: "context",
    });
    check(exampleTemplate(), "context", "move_down", {
      edit: { op: "move_section", path: "context", parent: null, index: 2 },
      select: "context",
    });
    check(exampleTemplate(), "context.examples", "move_down", {
      edit: { op: "move_section", path: "context.examples", parent: "context", index: 1 },
      select: "context.examples",
    });
  });

  it("is impossible for the first (up) and the last (down) sibling", () => {
    check(exampleTemplate(), "task", "move_up", null);
    check(exampleTemplate(), "context.examples", "move_up", null);
    check(exampleTemplate(), "style", "move_down", null);
    check(exampleTemplate(), "context.history", "move_down", null);
    check(deeper(), "context.examples.deep", "move_down", null);
  });
});

describe("indent", () => {
  it("makes the section the last child of its previous sibling, selected under its new path", () => {
    check(exampleTemplate(), "style", "indent", {
      edit: { op: "move_section", path: "style", parent: "context", index: 2 },
      select: "context.style",
    });
    check(exampleTemplate(), "context", "indent", {
      edit: { op: "move_section", path: "context", parent: "task", index: 0 },
      select: "task.context",
    });
    check(exampleTemplate(), "context.history", "indent", {
      edit: { op: "move_section", path: "context.history", parent: "context.examples", index: 0 },
      select: "context.examples.history",
    });
  });

  it("is impossible for a first sibling", () => {
    check(exampleTemplate(), "task", "indent", null);
    check(exampleTemplate(), "context.examples", "indent", null);
  });

  it("leaves a clash with the new siblings' keys to the backend to refuse", () => {
    const template = exampleTemplate();
    template.sections[1]?.children.push(bare("style"));
    expect(structureRequest(template, "style", "indent")?.edit).toEqual({
      op: "move_section",
      path: "style",
      parent: "context",
      index: 3,
    });
  });
});

describe("outdent", () => {
  it("makes the section the next sibling of its parent, selected under its new path", () => {
    check(exampleTemplate(), "context.examples", "outdent", {
      edit: { op: "move_section", path: "context.examples", parent: null, index: 2 },
      select: "examples",
    });
    check(deeper(), "context.examples.deep", "outdent", {
      edit: { op: "move_section", path: "context.examples.deep", parent: "context", index: 1 },
      select: "context.deep",
    });
  });

  it("is impossible at the top level", () => {
    for (const path of ["task", "context", "style"]) check(exampleTemplate(), path, "outdent", null);
  });
});

describe("impossible everywhere", () => {
  it.each(ACTIONS)("%s on a missing section builds nothing", (action) => {
    check(exampleTemplate(), "gone", action, null);
    check(exampleTemplate(), "context.gone", action, null);
  });

  it.each(ACTIONS.filter((action) => action !== "add_sibling"))("%s with nothing selected builds nothing", (action) => {
    check(exampleTemplate(), null, action, null);
  });
});

describe("canRestructure", () => {
  it("enables, row by row, only the actions possible there", () => {
    const template = exampleTemplate();
    const enabled = treeRows(template).map((row) => [
      row.path,
      ACTIONS.filter((action) => canRestructure(template, row.path, action)),
    ]);
    expect(enabled).toEqual([
      ["task", ["add_child", "add_sibling", "delete", "move_down"]],
      ["context", ["add_child", "add_sibling", "delete", "move_up", "move_down", "indent"]],
      ["context.examples", ["add_child", "add_sibling", "delete", "move_down", "outdent"]],
      ["context.history", ["add_child", "add_sibling", "delete", "move_up", "indent", "outdent"]],
      ["style", ["add_child", "add_sibling", "delete", "move_up", "indent"]],
    ]);
  });

  it("enables only adding a section when nothing is selected", () => {
    expect(ACTIONS.filter((action) => canRestructure(exampleTemplate(), null, action))).toEqual(["add_sibling"]);
  });
});
