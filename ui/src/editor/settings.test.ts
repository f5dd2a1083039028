// Tests for settings.ts: settings and parameter edits built from the template as it stands, their
// undo groups, free parameter names, and null when there is nothing to change; the check of a
// parameter's name as it is typed (the core's rule, the first thing wrong in words, a name another
// parameter has), a rename as two edits in one group that keep the default and the place, a
// parameter defined from a section's placeholder, and names followed through renames.
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  addParamEdit,
  defineParamEdit,
  followParamRenames,
  freeParamName,
  paramGroup,
  paramNameProblem,
  paramRenameGroup,
  removeParamEdit,
  renameParamEdits,
  setParamEdit,
  setSettingsEdit,
  settingsGroup,
  settingsOf,
} from "./settings";

describe("settings edits", () => {
  const template = exampleTemplate();
  const settings = settingsOf(template);

  it("reads the header and settings", () => {
    expect(settings).toEqual({
      ns: "agents/assistant",
      key: "task-executor",
      name: "Task executor",
      disclosure: "read_section",
      tool_disclosure: "full",
      heading: "plain",
    });
  });

  it("changes one setting and keeps the others; text fields are grouped, picks are steps", () => {
    expect(setSettingsEdit(template, "disclosure", "open_sections")).toEqual({
      edit: { op: "set_settings", settings: { ...settings, disclosure: "open_sections" } },
      group: null,
    });
    expect(setSettingsEdit(template, "name", "Runner")).toEqual({
      edit: { op: "set_settings", settings: { ...settings, name: "Runner" } },
      group: "settings/name",
    });
    expect(setSettingsEdit(template, "heading", "plain")).toBeNull();
    expect(settingsGroup("key")).toBe("settings/key");
    expect(settingsGroup("tool_disclosure")).toBeNull();
  });

  it("sets a parameter in its own group; unchanged is nothing", () => {
    expect(setParamEdit(template, "objective", "Ship")).toEqual({
      edit: { op: "set_param", name: "objective", value: "Ship" },
      group: paramGroup("objective"),
    });
    expect(paramGroup("objective")).toBe("param/objective");
    expect(setParamEdit(template, "objective", "Refactor")).toBeNull();
    expect(setParamEdit(template, "constructor", "")).not.toBeNull();
  });

  it.each([
    [{}, "param"],
    [{ param: "" }, "param_2"],
    [{ param: "", param_2: "", param_4: "" }, "param_3"],
  ])("picks a free identifier after %j: %s", (params, name) => {
    expect(freeParamName(params)).toBe(name);
  });

  it("adds a parameter with an empty default and removes one with value null", () => {
    expect(addParamEdit(template)).toEqual({ edit: { op: "set_param", name: "param", value: "" }, group: null });
    expect(removeParamEdit(template, "objective")).toEqual({
      edit: { op: "set_param", name: "objective", value: null },
      group: null,
    });
    expect(removeParamEdit(template, "missing")).toBeNull();
    expect(removeParamEdit(template, "toString")).toBeNull();
  });
});

describe("paramNameProblem", () => {
  const RULE = "A parameter needs a name: letters, digits and _, not starting with a digit";

  it.each([
    "tone",
    "Tone",
    "_private",
    "_",
    "__",
    "x9",
    "project_name",
    "camelCase",
    "ALL_CAPS",
    "a1_b2",
    " tone ", // surrounding spaces are dropped, as a rename drops them
    "\ttone",
    "objective", // its own name: not among the others
  ])("takes %j", (name) => {
    expect(paramNameProblem(name, ["project_name_2", "other"])).toBeNull();
  });

  it.each([
    ["", RULE],
    ["   ", RULE],
    ["1tone", "A name starts with a letter or _, not '1'"],
    ["9", "A name starts with a letter or _, not '9'"],
    ["my tone", "A name has no spaces: join words with _"],
    ["my\ttone", "A name has no spaces: join words with _"],
    ["my-tone", "A name has no -: join words with _"],
    ["-tone", "A name has no -: join words with _"],
    ["tone.x", "A name has only letters, digits and _, not '.'"],
    ["tone!", "A name has only letters, digits and _, not '!'"],
    ["a{b}", "A name has only letters, digits and _, not '{'"],
    ["naïve", "A name has only the letters a to z and A to Z, digits and _, not 'ï'"],
    ["тон", "A name has only the letters a to z and A to Z, digits and _, not 'т'"],
    ["tone😀", "A name has only letters, digits and _, not '😀'"],
    ["${tone}", "A name is written without $ or braces: write 'tone' for '${tone}'"],
    ["$tone", "A name is written without $ or braces: write 'tone' for '$tone'"],
    [" ${tone} ", "A name is written without $ or braces: write 'tone' for '${tone}'"],
    ["$", "A name has only letters, digits and _, not '$'"],
    ["${1x}", "A name has only letters, digits and _, not '$'"],
    ["${tone", "A name has only letters, digits and _, not '$'"],
    ["1-x", "A name has no -: join words with _"], // the first character that is never allowed comes first
    ["other", "Another parameter already has the name 'other'"],
    [" other ", "Another parameter already has the name 'other'"],
  ])("refuses %j: %s", (name, problem) => {
    expect(paramNameProblem(name, ["project_name_2", "other"])).toBe(problem);
  });

  it("tells names apart by case, as the core does", () => {
    expect(paramNameProblem("Other", ["other"])).toBeNull();
  });

  it("takes every name the core's rule takes, and refuses every other", () => {
    const core = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
    for (const name of ["a", "_", "a_1", "1a", "a-b", "a b", "é", "", "a$", "$a", "${a}", "Z9_"]) {
      expect(paramNameProblem(name, []) === null, JSON.stringify(name)).toBe(core(name));
    }
  });
});

describe("parameter renames and definitions", () => {
  const template: Template = {
    ...exampleTemplate(),
    params: { objective: "Refactor", project_name: "Acme", tone: "" },
  };

  it("renames with the default at the old place, then removes the old name, in one group", () => {
    const group = paramRenameGroup("project_name", "project");
    expect(group).toBe("param-name/project_name/project");
    expect(renameParamEdits(template, "project_name", " project ")).toEqual([
      { edit: { op: "set_param", name: "project", value: "Acme", index: 1 }, group },
      { edit: { op: "set_param", name: "project_name", value: null }, group },
    ]);
    expect(renameParamEdits(template, "objective", "goal")?.[0]?.edit).toEqual({
      op: "set_param",
      name: "goal",
      value: "Refactor",
      index: 0,
    });
  });

  it("sends nothing for the same name, a missing parameter, an invalid or a taken name", () => {
    expect(renameParamEdits(template, "tone", "tone")).toBeNull();
    expect(renameParamEdits(template, "tone", " tone ")).toBeNull();
    expect(renameParamEdits(template, "missing", "goal")).toBeNull();
    expect(renameParamEdits(template, "constructor", "goal")).toBeNull();
    expect(renameParamEdits(template, "tone", "my tone")).toBeNull();
    expect(renameParamEdits(template, "tone", "1tone")).toBeNull();
    expect(renameParamEdits(template, "tone", "objective")).toBeNull();
  });

  it("defines a parameter a section uses with an empty default, once", () => {
    expect(defineParamEdit(template, "audience")).toEqual({
      edit: { op: "set_param", name: "audience", value: "" },
      group: null,
    });
    expect(defineParamEdit(template, "tone")).toBeNull();
    expect(defineParamEdit(template, "not a name")).toBeNull();
    expect(defineParamEdit(template, "toString")).not.toBeNull();
  });

  it("follows a name through renames in order", () => {
    const renames = [
      { from: "a", to: "b" },
      { from: "x", to: "y" },
      { from: "b", to: "c" },
    ];
    expect(followParamRenames("a", renames)).toBe("c");
    expect(followParamRenames("b", renames)).toBe("c");
    expect(followParamRenames("x", renames)).toBe("y");
    expect(followParamRenames("z", renames)).toBe("z");
    expect(followParamRenames("a", [])).toBe("a");
  });
});
