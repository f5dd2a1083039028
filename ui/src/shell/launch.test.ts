// Tests for launch.ts: the start-up flow.
import { describe, expect, it } from "vitest";
import type { DocumentView, Outcome, Platform } from "../platform";
import { FakePlatform } from "../testing/fakePlatform";
import { loadInitialView } from "./launch";

function fakePlatform(over: Partial<Platform> = {}): Platform {
  const fake = new FakePlatform("/t/a.unfold.json");
  return Object.assign(fake, over);
}

describe("loadInitialView", () => {
  it("shows a notice outside Tauri without calling the backend", async () => {
    const calls: string[] = [];
    const view = await loadInitialView(
      fakePlatform({
        isTauri: () => false,
        initialTemplatePath: () => {
          calls.push("initialTemplatePath");
          return Promise.resolve({ ok: true, value: null });
        },
      }),
    );
    expect(view).toEqual({ kind: "outside_tauri" });
    expect(calls).toEqual([]);
  });

  it("asks for a template when the app was started without one", async () => {
    const view = await loadInitialView(
      fakePlatform({ initialTemplatePath: () => Promise.resolve({ ok: true, value: null }) }),
    );
    expect(view).toEqual({ kind: "no_template" });
  });

  it("opens the launch template", async () => {
    const platform = new FakePlatform("/t/a.unfold.json");
    expect(await loadInitialView(platform)).toEqual({ kind: "open", document: platform.view() });
    expect(platform.argsOf("openDocument")).toEqual([["/t/a.unfold.json"]]);
  });

  it("shows the backend error with the path that failed", async () => {
    const failed: Outcome<DocumentView> = {
      ok: false,
      error: {
        code: "invalid_template",
        message: "/t/a.unfold.json: line 1 column 2: expected value",
        problems: [{ location: "line 1, column 2", message: "expected value" }],
      },
    };
    expect(await loadInitialView(fakePlatform({ openDocument: () => Promise.resolve(failed) }))).toEqual({
      kind: "error",
      path: "/t/a.unfold.json",
      title: "This template cannot be opened",
      detail: "1 problem, at its place:",
      problems: [{ location: "line 1, column 2", message: "expected value" }],
    });
  });
});
