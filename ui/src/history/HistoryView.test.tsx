// Renders HistoryView in happy-dom over the FakePlatform's example history (scripted runs 1 to 3 of
// lookup-first: dynamic, restart, all-FULL baseline; live runs 4, dynamic, and 5, restart, failed)
// and over a history kept as the backend keeps comparisons (testHistory.ts: two comparisons, a live
// run and a replay): a comparison's runs grouped under one heading, a run of its own alone, the
// all-FULL baseline named as such, a row per run, a filter change that lists again, a selected run's
// user message, answer or error, counters and events on the timeline, the reference run and the
// comparison with it (two lanes named after their runs, the counters with the deltas, the first
// divergence named and highlighted), "baseline" said only of the all-FULL baseline, the empty states,
// failures, model text shown as text, and a run's trace written where the user chooses.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { ToastProvider } from "../shared/ToastRegion";
import { HistoryView } from "./HistoryView";
import { HistoryStore } from "./store";
import { FIRST_COMPARISON_MS, keptHistory } from "../testing/history";
import { byTestId, click, settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function render(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: HistoryStore }> {
  const store = new HistoryStore(platform);
  act(() => {
    root.render(
      <ToastProvider>
        <HistoryView store={store} />
      </ToastProvider>,
    );
  });
  await settle();
  return { platform, store };
}

function all(selector: string): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(selector)];
}

function row(id: number): HTMLElement {
  return byTestId(`history-row"][data-id="${String(id)}`);
}

/** Sets a filter field as typing or choosing does (React listens to input and change events). */
async function setField(id: string, value: string): Promise<void> {
  const field = byTestId(id) as HTMLInputElement | HTMLSelectElement;
  act(() => {
    const prototype = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
    field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  });
  await settle();
}

const rowIds = () => all('[data-testid="history-row"]').map((r) => Number(r.dataset.id));

/** A fake backend that keeps testHistory's runs. */
function keeping(): FakePlatform {
  const platform = new FakePlatform();
  platform.compare.history = keptHistory();
  return platform;
}

/** The ids of the rows under `within`. */
const idsIn = (within: ParentNode) =>
  [...within.querySelectorAll<HTMLElement>('[data-testid="history-row"]')].map((r) => Number(r.dataset.id));

const cellTexts = (element: Element) => [...element.querySelectorAll("td, th")].map((cell) => cell.textContent);

describe("HistoryView", () => {
  it("shows a row per kept run, newest first, with what ran it and what it cost", async () => {
    const { platform } = await render(keeping());
    expect(platform.argsOf("runHistory")).toEqual([[{ limit: 200 }]]);
    expect(rowIds()).toEqual([8, 5, 6, 7, 4, 1, 2, 3]);
    const started = (ms: number) =>
      new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
    expect(cellTexts(row(4))).toEqual([
      started(FIRST_COMPARISON_MS + 20 * 60_000),
      "live",
      "task-executor",
      "local (qwen3)",
      "dynamic adapter",
      "completed",
      "4",
      "1,197 + 25",
      "8.4 s",
    ]);
    expect(cellTexts(row(8)).slice(1, 6)).toEqual([
      "replay",
      "task-executor",
      "local (qwen3)",
      "restart adapter",
      "completed",
    ]);
    // A comparison's run leaves when, where from and how long to its heading.
    expect(cellTexts(row(3))).toEqual(["", "all-FULL baseline", "completed", "3", "664 + 17", ""]);
    expect(container.querySelector('[data-testid="history-detail"]')).toBeNull();
  });

  it("groups a comparison's runs under one heading, and leaves a live run and a replay alone", async () => {
    await render(keeping());
    const table = byTestId("history-table");
    const bodies = [...table.querySelectorAll("tbody")].map((body) => [body.dataset.testid, ...idsIn(body)]);
    expect(bodies).toEqual([
      ["history-single", 8],
      ["history-group", 5, 6, 7],
      ["history-single", 4],
      ["history-group", 1, 2, 3],
    ]);
    const groups = all('[data-testid="history-group"]');
    expect(groups.map((group) => Number(group.dataset.started))).toEqual([
      FIRST_COMPARISON_MS + 60 * 60_000,
      FIRST_COMPARISON_MS,
    ]);
    const [, first] = groups;
    if (first === undefined) throw new Error("two comparisons");
    const head = byTestId("history-group-head", first);
    const started = new Date(FIRST_COMPARISON_MS).toLocaleString(undefined, {
      dateStyle: "medium",
      timeStyle: "medium",
    });
    expect(cellTexts(head)).toEqual([
      started,
      "scripted",
      "task-executor",
      "lookup-first",
      "comparison, 3 runs",
      "55 ms",
    ]);
    expect(first.getAttribute("aria-label")).toBe(`Comparison started ${started}`);
    const runs = [...first.querySelectorAll<HTMLElement>('[data-testid="history-row"]')];
    expect(runs.map((r) => r.dataset.lane)).toEqual(["dynamic", "restart", "baseline"]);
    expect(runs.map((r) => byTestId("history-run-kind", r).textContent)).toEqual([
      "dynamic adapter",
      "restart adapter",
      "all-FULL baseline",
    ]);
    expect(row(4).dataset.lane).toBeUndefined();

    // A filter that lists one run of each comparison keeps it under its comparison's heading.
    await setField("history-filter-adapter", "restart");
    expect(all("tbody").map((body) => [body.dataset.testid, ...idsIn(body)])).toEqual([
      ["history-single", 8],
      ["history-group", 6],
      ["history-group", 2],
    ]);
    expect(all('[data-testid="history-group-head"] th').map((th) => th.textContent)).toEqual([
      "comparison, 1 run",
      "comparison, 1 run",
    ]);
  });

  it("names the all-FULL baseline as such in its row, its detail and its lane, never by its adapter", async () => {
    await render(keeping());
    const kind = byTestId("history-run-kind", row(3));
    expect(kind.textContent).toBe("all-FULL baseline");
    expect(kind.dataset.kind).toBe("all-full-baseline");
    expect(kind.title).toContain("every section FULL");
    expect(row(3).textContent).not.toContain("dynamic");
    await click(row(3));
    expect(byTestId("history-run-title").textContent).toBe("run 3, all-FULL baseline");
    const head = byTestId("history-detail").querySelector(".history-detail-head")?.textContent ?? "";
    expect(head).not.toContain("dynamic");
    expect(head).toContain("55 ms (the whole comparison)");
    const lanes = all('[data-testid="lane"]');
    expect(lanes.map((lane) => lane.querySelector(".lane-note")?.textContent)).toEqual(["all-FULL baseline, scripted"]);
    await click(row(1));
    expect(byTestId("history-run-title").textContent).toBe("run 1, dynamic adapter");
  });

  it("calls the run picked to compare with the reference run, and says baseline only of the all-FULL baseline", async () => {
    await render(keeping());
    const words = () => {
      const text = byTestId("history-view").textContent;
      return {
        baseline: text.match(/baseline/gi)?.length ?? 0,
        allFull: text.match(/all-FULL baseline/g)?.length ?? 0,
      };
    };
    expect(container.querySelector(".history-reference")?.textContent).toBe(
      "No reference run chosen: select a run and use it as the reference run to compare other runs with it.",
    );

    // The all-FULL baseline of the first comparison, picked as the reference run.
    await click(row(3));
    const use = byTestId("history-use-reference");
    expect(use.textContent).toBe("Use as reference run");
    await click(use);
    expect(byTestId("history-reference").textContent).toContain(
      "Reference run: run 3, all-FULL baseline · lookup-first",
    );
    expect(row(3).dataset.reference).toBe("true");
    expect(byTestId("history-run-kind", row(3)).textContent).toBe("all-FULL baselinereference run");
    expect((use as HTMLButtonElement).title).toBe("This run is the reference run");

    await click(row(2));
    const compare = byTestId("history-compare");
    expect(compare.textContent).toBe("Compare with the reference run (run 3)");
    expect(compare.title).toBe("Compare run 2 with the reference run, run 3, all-FULL baseline");
    await click(compare);
    const comparison = byTestId("history-comparison");
    expect(comparison.getAttribute("aria-label")).toBe("Comparison with the reference run");
    expect(comparison.querySelector("caption")?.textContent).toBe("Counters beside the reference run");
    expect([...comparison.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual([
      "Counter",
      "run 3, all-FULL baseline (reference run)",
      "run 2, restart adapter",
      "run − reference",
    ]);
    expect(all('[data-testid="lane-head"]').map((head) => head.textContent)).toEqual([
      "run 3reference run: all-FULL baseline, scripted",
      "run 2restart adapter, scripted",
    ]);
    // Every "baseline" on the page is the all-FULL baseline.
    const seen = words();
    expect(seen.allFull).toBeGreaterThanOrEqual(4);
    expect(seen.baseline).toBe(seen.allFull);

    await click(byTestId("history-clear-reference"));
    expect(container.querySelector('[data-testid="history-reference"]')).toBeNull();
    expect(container.querySelector('[data-testid="history-comparison"]')).toBeNull();
    expect(container.querySelector('[data-testid="history-compare"]')).toBeNull();
  });

  it("lists again when a filter changes, and on Refresh", async () => {
    const { platform } = await render();
    await setField("history-filter-source", "live");
    expect(platform.argsOf("runHistory").at(-1)).toEqual([{ source: "live", limit: 200 }]);
    expect(rowIds()).toEqual([5, 4]);
    await setField("history-filter-adapter", "restart");
    expect(rowIds()).toEqual([5]);
    await setField("history-filter-status", "completed");
    expect(platform.argsOf("runHistory").at(-1)).toEqual([
      { adapter: "restart", status: "completed", source: "live", limit: 200 },
    ]);
    expect(byTestId("history-empty").textContent).toContain("No kept run matches the filter");
    await setField("history-filter-status", "");
    await setField("history-filter-source", "");
    await setField("history-filter-adapter", "");
    await setField("history-filter-provider", "local");
    expect(platform.argsOf("runHistory").at(-1)).toEqual([{ provider: "local", limit: 200 }]);
    expect(rowIds()).toEqual([5, 4]);
    await setField("history-filter-template", "another-template");
    expect(rowIds()).toEqual([]);

    const before = platform.argsOf("runHistory").length;
    await click(byTestId("history-refresh"));
    expect(platform.argsOf("runHistory")).toHaveLength(before + 1);
  });

  it("keeps the selected row in view as the detail opens under the list", async () => {
    await render();
    const scrolled: Element[] = [];
    vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    await click(row(2));
    expect(byTestId("history-detail").closest(".history-panes")?.classList.contains("with-detail")).toBe(true);
    expect(scrolled).toEqual([row(2)]);
    await click(row(3));
    expect(scrolled).toEqual([row(2), row(3)]);
  });

  it("shows the selected run's message, answer, counters and its events on one lane", async () => {
    const { platform } = await render();
    await click(row(2));
    expect(row(2).getAttribute("aria-selected")).toBe("true");
    const detail = byTestId("history-detail");
    expect(byTestId("history-user", detail).textContent).toBe("Refactor the authentication module.");
    expect(byTestId("history-final", detail).textContent).toBe("Fixed the login flow.");
    const counters = byTestId("history-counters", detail);
    expect(counters.querySelector('[data-counter="restarts"] td')?.textContent).toBe("1");
    const lanes = all('[data-testid="lane"]');
    expect(lanes.map((lane) => lane.dataset.lane)).toEqual(["restart"]);
    expect(lanes[0]?.querySelector("h4")?.textContent).toBe("run 2");
    const stored = await platform.historyRun(2);
    if (!stored.ok) throw new Error("run 2 is kept");
    const shown = all('[data-testid="timeline-event"], [data-testid="run-end"]').map((event) =>
      Number(event.dataset.seq),
    );
    const expected = stored.value.report.events
      .filter((event) => event.type !== "run_started")
      .map((event) => event.seq);
    expect(shown.sort((a, b) => a - b)).toEqual(expected);
    expect(all('[data-testid="attempt-separator"]')).toHaveLength(1);
    expect(container.querySelector('[data-testid="baseline-toggle"]')).toBeNull();

    // A picked event shows whole, as text.
    const toolCall = all('[data-testid="timeline-event"][data-type="tool_call"]')[0];
    if (toolCall === undefined) throw new Error("run 2 calls tools");
    await click(toolCall);
    expect(toolCall.getAttribute("aria-pressed")).toBe("true");
    expect(byTestId("history-event").textContent).toContain('"name": "lookup"');
  });

  it("shows a failed run's error", async () => {
    await render();
    await click(row(5));
    expect(byTestId("history-error").textContent).toBe("The run failed: http://127.0.0.1:11434/v1: connection refused");
    expect(container.querySelector('[data-testid="history-final"]')).toBeNull();
    expect(byTestId("run-end").textContent).toContain("run ended: error");
  });

  it("compares the selected run with the reference run: counters with deltas, the divergence and both lanes", async () => {
    await render();
    await click(row(1));
    expect(container.querySelector('[data-testid="history-compare"]')).toBeNull();
    await click(byTestId("history-use-reference"));
    expect(byTestId("history-reference").textContent).toContain("run 1, dynamic adapter");
    expect(row(1).dataset.reference).toBe("true");
    expect((byTestId("history-use-reference") as HTMLButtonElement).disabled).toBe(true);
    expect(container.querySelector('[data-testid="history-compare"]')).toBeNull();

    await click(row(2));
    await click(byTestId("history-compare"));
    const comparison = byTestId("history-comparison");
    expect(byTestId("history-divergence", comparison).textContent).toBe(
      "restart at call 2 discarded lookup(7); it was redone at call 3",
    );
    const pair = (counter: string) =>
      [
        ...(comparison
          .querySelector(`[data-testid="history-pair-row"][data-counter="${counter}"]`)
          ?.querySelectorAll("td") ?? []),
      ].map((td) => td.textContent);
    expect(pair("model_calls")).toEqual(["4", "5", "+1"]);
    expect(pair("tools_injected")).toEqual(["2", "0", "−2"]);
    expect(pair("completion_tokens")).toEqual(["25", "31", "+6"]);
    const heads = [...comparison.querySelectorAll("thead th")].map((th) => th.textContent);
    expect(heads).toEqual([
      "Counter",
      "run 1, dynamic adapter (reference run)",
      "run 2, restart adapter",
      "run − reference",
    ]);

    const lanes = all('[data-testid="lane"]');
    expect(lanes.map((lane) => lane.dataset.lane)).toEqual(["baseline", "restart"]);
    expect(lanes.map((lane) => lane.querySelector("h4")?.textContent)).toEqual(["run 1", "run 2"]);
    const highlighted = all('[data-divergence="true"]');
    expect(highlighted.map((event) => `${event.dataset.lane ?? ""}:${event.dataset.seq ?? ""}`)).toEqual(["restart:6"]);

    await click(byTestId("history-close-compare"));
    expect(container.querySelector('[data-testid="history-comparison"]')).toBeNull();
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual(["restart"]);
  });

  it("says when two runs do not diverge", async () => {
    await render();
    await click(row(1));
    await click(byTestId("history-use-reference"));
    await click(row(4));
    await click(byTestId("history-compare"));
    expect(byTestId("history-divergence").textContent).toMatch(/^none/);
    expect(all('[data-testid="history-delta"]').every((cell) => cell.textContent === "0")).toBe(true);
  });

  it("shows the empty state while no run is kept", async () => {
    const platform = new FakePlatform();
    platform.compare.history = [];
    await render(platform);
    expect(byTestId("history-empty").textContent).toContain("Runs appear here once you run a comparison");
    expect(container.querySelector('[data-testid="history-table"]')).toBeNull();
  });

  it("shows why the history was not read, with the backend's message", async () => {
    const platform = new FakePlatform();
    platform.failures.set("runHistory", {
      code: "unreadable_file",
      message: "/data/history.sqlite: database is locked",
      problems: [],
    });
    await render(platform);
    const failure = byTestId("history-failure");
    expect(failure.textContent).toContain("The run history was not read");
    expect(failure.textContent).toContain("/data/history.sqlite: database is locked");
    platform.failures.delete("runHistory");
    await click(byTestId("history-refresh"));
    expect(container.querySelector('[data-testid="history-failure"]')).toBeNull();
    expect(rowIds()).toHaveLength(5);
  });

  it("shows the model's and the user's text as text, never as HTML", async () => {
    const platform = new FakePlatform();
    const [first] = platform.compare.history;
    if (first === undefined) throw new Error("the example history has runs");
    const markup = "<img src=x onerror=alert(1)><b>bold</b>";
    platform.compare.history = [{ ...first, user: markup, report: { ...first.report, final: markup } }];
    await render(platform);
    await click(row(1));
    expect(byTestId("history-user").textContent).toBe(markup);
    expect(byTestId("history-final").textContent).toBe(markup);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
  });
});

describe("HistoryView: a run's trace", () => {
  it("writes the selected run's trace where the user chooses, and says where", async () => {
    const { platform } = await render();
    await click(row(2));
    const button = byTestId("history-export-trace");
    expect(button.getAttribute("title")).toBe("Write this run as an OpenTelemetry trace (OTLP JSON lines)");
    platform.chosenPath = "/traces/restart.otlp.jsonl";
    await click(button);
    expect(platform.argsOf("chooseFile")).toEqual([["save_trace", "run-2.otlp.jsonl"]]);
    expect(platform.argsOf("exportRunTrace")).toEqual([[2, "/traces/restart.otlp.jsonl"]]);
    expect(platform.compare.exported.has("/traces/restart.otlp.jsonl")).toBe(true);
    expect(byTestId("history-notice").textContent).toContain("Exported to /traces/restart.otlp.jsonl");
  });

  it("writes nothing when the save dialog is cancelled", async () => {
    const { platform } = await render();
    await click(row(4));
    platform.chosenPath = null;
    await click(byTestId("history-export-trace"));
    expect(platform.argsOf("chooseFile")).toEqual([["save_trace", "run-4.otlp.jsonl"]]);
    expect(platform.callNames()).not.toContain("exportRunTrace");
    expect(container.querySelector('[data-testid="history-notice"]')).toBeNull();
    expect(container.querySelector('[data-testid="history-failure"]')).toBeNull();
  });

  it("says why the trace was not written", async () => {
    const { platform } = await render();
    await click(row(1));
    platform.chosenPath = "/read-only/run-1.otlp.jsonl";
    platform.failures.set("exportRunTrace", {
      code: "unreadable_file",
      message: "/read-only: cannot write: Permission denied",
      problems: [],
    });
    await click(byTestId("history-export-trace"));
    const failure = byTestId("history-failure");
    expect(failure.textContent).toContain("The trace of run 1 was not written");
    expect(failure.textContent).toContain("/read-only: cannot write: Permission denied");
    expect(container.querySelector('[data-testid="history-notice"]')).toBeNull();
  });
});
