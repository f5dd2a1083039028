// Tests for template.ts: a section by its path, and path arithmetic.
import { describe, expect, it } from "vitest";
import { exampleTemplate } from "../testing/fakePlatform";
import { childPath, keyOf, parentPath, sectionAt } from "./template";

describe("sectionAt", () => {
  it.each([
    ["task", "Task"],
    ["context.history", "History"],
  ])("finds %s", (path, title) => {
    expect(sectionAt(exampleTemplate(), path)?.title).toBe(title);
  });

  it.each(["", "nope", "task.examples", "context.examples.deeper", "examples"])("finds nothing at %j", (path) => {
    expect(sectionAt(exampleTemplate(), path)).toBeUndefined();
  });
});

describe("path arithmetic", () => {
  it.each([
    [null, "task", "task"],
    ["context", "history", "context.history"],
    ["context.examples", "deep", "context.examples.deep"],
  ])("the child %s of %s is %s", (parent, key, path) => {
    expect(childPath(parent, key)).toBe(path);
  });

  it.each([
    ["task", null, "task"],
    ["context.history", "context", "history"],
    ["context.examples.deep", "context.examples", "deep"],
  ])("%s has the parent %s and the key %s", (path, parent, key) => {
    expect(parentPath(path)).toBe(parent);
    expect(keyOf(path)).toBe(key);
  });
});
