// Tests for settings.ts: settings and parameter edits built from the template as it stands, their
// undo groups, free parameter names, and null when there is nothing to change.
import { describe, expect, it } from "vitest";
import { exampleTemplate } from "../testing/fakePlatform";
import {
  addParamEdit,
  freeParamName,
  paramGroup,
  removeParamEdit,
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
