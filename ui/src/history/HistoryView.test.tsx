// Renders HistoryView in happy-dom over the FakePlatform's example history (scripted runs 1 to 3 of
// lookup-first: dynamic, restart, baseline; live runs 4, dynamic, and 5, restart, failed): a row per
// run, a filter change that lists again, a selected run's user message, answer or error, counters and
// events on the timeline, the baseline and the comparison (two lanes named after their runs, the
// counters with the deltas, the first divergence named and highlighted), the empty states, failures,
// and model text shown as text.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { HistoryView } from "./HistoryView";
import { HistoryStore } from "./store";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** Lets every pending backend answer reach the page. */
async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

async function render(platform = new FakePlatform()): Promise<{ platform: FakePlatform; store: HistoryStore }> {
  const store = new HistoryStore(platform);
  act(() => {
    root.render(<HistoryView store={store} />);
  });
  await settle();
  return { platform, store };
}

function byTestId(id: string, within: ParentNode = container): HTMLElement {
  const element = within.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`no element with data-testid=${id}`);
  return element;
}

function all(selector: string): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(selector)];
}

function row(id: number): HTMLElement {
  return byTestId(`history-row"][data-id="${String(id)}`);
}

async function click(element: HTMLElement): Promise<void> {
  act(() => {
    element.click();
  });
  await settle();
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

describe("HistoryView", () => {
  it("shows a row per kept run, newest first, with what ran it and what it cost", async () => {
    const { platform } = await render();
    expect(platform.argsOf("runHistory")).toEqual([[{ limit: 200 }]]);
    expect(rowIds()).toEqual([5, 4, 3, 2, 1]);
    const cells = (id: number) => [...row(id).querySelectorAll("td")].map((td) => td.textContent);
    expect(cells(3).slice(1)).toEqual(["scripted", "task-executor", "lookup-first [baseline]", "dynamic", "completed", "3", "664 + 17", "55 ms"]);
    expect(cells(4).slice(1, 4)).toEqual(["live", "task-executor", "local (qwen3)"]);
    expect(cells(4)[8]).toBe("8.4 s");
    expect(cells(5)[5]).toBe("error");
    expect(cells(1)[0]).toBe(new Date(Date.UTC(2026, 0, 5, 9, 30)).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }));
    expect(container.querySelector('[data-testid="history-detail"]')).toBeNull();
  });

  it("lists again when a filter changes, and on Refresh", async () => {
    const { platform } = await render();
    await setField("history-filter-source", "live");
    expect(platform.argsOf("runHistory").at(-1)).toEqual([{ source: "live", limit: 200 }]);
    expect(rowIds()).toEqual([5, 4]);
    await setField("history-filter-adapter", "restart");
    expect(rowIds()).toEqual([5]);
    await setField("history-filter-status", "completed");
    expect(platform.argsOf("runHistory").at(-1)).toEqual([{ adapter: "restart", status: "completed", source: "live", limit: 200 }]);
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
    const shown = all('[data-testid="timeline-event"], [data-testid="run-end"]').map((event) => Number(event.dataset.seq));
    const expected = stored.value.report.events.filter((event) => event.type !== "run_started").map((event) => event.seq);
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

  it("compares the selected run with the baseline: counters with deltas, the divergence and both lanes", async () => {
    await render();
    await click(row(1));
    expect(container.querySelector('[data-testid="history-compare"]')).toBeNull();
    await click(byTestId("history-use-baseline"));
    expect(byTestId("history-baseline").textContent).toContain("run 1");
    expect(row(1).dataset.baseline).toBe("true");
    expect((byTestId("history-use-baseline") as HTMLButtonElement).disabled).toBe(true);
    expect(container.querySelector('[data-testid="history-compare"]')).toBeNull();

    await click(row(2));
    await click(byTestId("history-compare"));
    const comparison = byTestId("history-comparison");
    expect(byTestId("history-divergence", comparison).textContent).toBe("restart at call 2 discarded lookup(7); it was redone at call 3");
    const pair = (counter: string) =>
      [...(comparison.querySelector(`[data-testid="history-pair-row"][data-counter="${counter}"]`)?.querySelectorAll("td") ?? [])].map(
        (td) => td.textContent,
      );
    expect(pair("model_calls")).toEqual(["4", "5", "+1"]);
    expect(pair("tools_injected")).toEqual(["2", "0", "-2"]);
    expect(pair("completion_tokens")).toEqual(["25", "31", "+6"]);
    const heads = [...comparison.querySelectorAll("thead th")].map((th) => th.textContent);
    expect(heads).toEqual(["Counter", "run 1 (baseline)", "run 2", "run − baseline"]);

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
    await click(byTestId("history-use-baseline"));
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
    platform.failures.set("runHistory", { code: "unreadable_file", message: "/data/history.sqlite: database is locked", problems: [] });
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
