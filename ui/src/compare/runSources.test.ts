// Which sources are asked about before a run: the not allowed and the changed ones of a saved
// template, not the allowed or unsaved ones, nor a definition run with its snapshot this session in
// the same file; a changed definition, or the same one in another file, asks again.
import { describe, expect, it } from "vitest";
import type { Permission } from "../platform";
import { declinedKey, sourcesToAsk, withDeclined } from "./runSources";

const PATH = "/t/task.unfold.json";

function view(name: string, permission: Permission, starts = `runs ${name}`) {
  return { name, starts, permission };
}

describe("sourcesToAsk", () => {
  it("asks about the not allowed and the changed sources, in order", () => {
    const views = [view("ide", "not_allowed"), view("docs", "allowed"), view("codap", "changed")];
    expect(sourcesToAsk(views, PATH, new Set()).map((v) => v.name)).toEqual(["ide", "codap"]);
  });

  it("asks nothing when every source is allowed, or there are none", () => {
    expect(sourcesToAsk([view("ide", "allowed")], PATH, new Set())).toEqual([]);
    expect(sourcesToAsk([], PATH, new Set())).toEqual([]);
  });

  it("asks nothing of an unsaved template", () => {
    expect(sourcesToAsk([view("ide", "unsaved")], PATH, new Set())).toEqual([]);
    expect(sourcesToAsk([view("ide", "not_allowed")], null, new Set())).toEqual([]);
  });

  it("does not ask again about a definition run with its snapshot in the same file", () => {
    const declined = withDeclined(new Set(), PATH, [view("ide", "not_allowed")]);
    const views = [view("ide", "not_allowed"), view("docs", "not_allowed")];
    expect(sourcesToAsk(views, PATH, declined).map((v) => v.name)).toEqual(["docs"]);
  });

  it("asks again once the definition changed, or in another file", () => {
    const declined = withDeclined(new Set(), PATH, [view("ide", "not_allowed", "runs python3 a.py")]);
    expect(sourcesToAsk([view("ide", "not_allowed", "runs python3 b.py")], PATH, declined)).toHaveLength(1);
    expect(sourcesToAsk([view("ide", "changed", "runs python3 a.py")], PATH, declined)).toEqual([]);
    expect(
      sourcesToAsk([view("ide", "not_allowed", "runs python3 a.py")], "/t/other.unfold.json", declined),
    ).toHaveLength(1);
  });
});

describe("withDeclined", () => {
  it("adds to what was declined, leaving the set it was given alone", () => {
    const first = withDeclined(new Set(), PATH, [view("ide", "not_allowed")]);
    const both = withDeclined(first, PATH, [view("docs", "changed")]);
    expect([...first]).toEqual([declinedKey(PATH, view("ide", "not_allowed"))]);
    expect(both.size).toBe(2);
  });

  it("tells apart names and commands that would run together as text", () => {
    expect(declinedKey(PATH, { name: "a b", starts: "c" })).not.toBe(declinedKey(PATH, { name: "a", starts: "b c" }));
  });
});
