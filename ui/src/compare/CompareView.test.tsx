// Renders CompareView in happy-dom over the FakePlatform and the lookup-first report: the empty
// state and its recent scenarios, opening and running the scenario, the lanes holding every event of
// the report with the restart's new attempt marked, the lanes lined up by work (a row of different
// calls saying so), the restart's discarded calls marked, the first divergence named and
// highlighted, the counters with statuses in words and the savings as more or fewer, the token chart
// (every call on its axis, a tooltip per point, the restart marked, lanes kept apart, the cumulative
// toggle, and a priced comparison's cost once it has finished), the picked event's request as text, the event detail closed by its button
// or Escape (not Escape meant for a field or the providers dialog) with the focus back on the picked
// event, a held comparison streaming and
// cancelled, the baseline toggle, the exports and the failures; the model picker (scripted or a
// profile's live model, its adapters, what Run will run, the missing key's warning) and a live
// report without a baseline (and with one adapter, without a divergence) in every part of the view;
// the question Run asks first about the template's sources not allowed (what each starts, Allow and
// run, Run with snapshots kept for the session until a definition changes, Cancel and Escape, a
// refused allow) and no question for a template without sources, all allowed or unsaved; the relay
// session picker (only for a relay source while the relay has sessions) and the session it sends;
// the price picker (the script's only: a live model is priced as its own) and the model it sends,
// and a prices file that cannot be read.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { Lane, RunEvent, Template } from "../platform";
import { costWithTotals, pricedLookupFirst } from "../testing/costs";
import { liveReport, localProfile, lookupFirstReport, lookupFirstScenario } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { relaySession, templateWithSources } from "../testing/sources";
import { mountEachTest } from "../testing/testRoot";
import { counterRows, divergencePlaces, signed } from "../runs/timeline";
import { byTestId, choose, click, keyDown, settle } from "../testing/dom";
import { ComparePageOf, openComparePage, type CompareStores } from "../testing/comparePage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const PATH = "/s/lookup-first.scenario.json";

/** `sourcesAllowed`: what the store calls once it allowed sources before a run. */
function setup(template?: Template, sourcesAllowed?: () => void): { platform: FakePlatform; store: CompareStores } {
  const platform = new FakePlatform(undefined, template);
  platform.compare.disk.set(PATH, lookupFirstScenario());
  const store = openComparePage(platform, undefined, sourcesAllowed);
  return { platform, store };
}

async function render(store: CompareStores, platform: FakePlatform): Promise<void> {
  act(() => {
    root.render(<ComparePageOf stores={store} platform={platform} />);
  });
  await settle();
}

function all(selector: string): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(selector)];
}

/**
 * The view over `template` with the lookup-first scenario opened through the Open button; `prepare`
 * sets the backend up before the view shows.
 */
async function openScenario(
  template?: Template,
  sourcesAllowed?: () => void,
  prepare?: (platform: FakePlatform) => void,
): Promise<{ platform: FakePlatform; store: CompareStores }> {
  const setUp = setup(template, sourcesAllowed);
  prepare?.(setUp.platform);
  await render(setUp.store, setUp.platform);
  setUp.platform.chosenPath = PATH;
  await click(byTestId("open-scenario"));
  return setUp;
}

async function openAndRun(): Promise<{ platform: FakePlatform; store: CompareStores }> {
  const setUp = await openScenario();
  await click(byTestId("run-comparison"));
  return setUp;
}

/** The name of an OpenAI tool object, as the request's tools list it. */
function toolNameOf(tool: { function: { name: string } }): string {
  return tool.function.name;
}

function runEvents(lane: Lane): RunEvent[] {
  const report = lookupFirstReport();
  return (lane === "baseline" ? report.baseline : report.runs.find((run) => run.adapter === lane))?.events ?? [];
}

function shownSeqs(lane: Lane): number[] {
  return all(`[data-testid="lane"][data-lane="${lane}"] [data-testid="timeline-event"]`).map((e) =>
    Number(e.dataset.seq),
  );
}

function event(lane: Lane, seq: number): HTMLElement {
  return byTestId(`timeline-event"][data-lane="${lane}"][data-seq="${String(seq)}`);
}

/** Presses Escape with the focus on `target` (the page's body: focus nowhere). */
async function pressEscape(target: HTMLElement): Promise<KeyboardEvent> {
  const press = keyDown(target, "Escape");
  await settle();
  return press;
}

function detailShown(): boolean {
  return container.querySelector('[data-testid="event-detail"]') !== null;
}

/** The view after a run, with restart's call 3 picked from its focused button. */
async function picked(): Promise<{ platform: FakePlatform; store: CompareStores; call3: HTMLElement }> {
  const setUp = await openAndRun();
  const call3 = event("restart", 7);
  call3.focus();
  await click(call3);
  expect(detailShown()).toBe(true);
  return { ...setUp, call3 };
}

describe("CompareView", () => {
  it("offers a new, an opened or a recent scenario while none is open, and cannot run", async () => {
    const { store, platform } = setup();
    platform.compare.recent = [{ path: PATH, exists: true }];
    await render(store, platform);
    expect(container.textContent).toContain("No scenario is open");
    expect((byTestId("run-comparison") as HTMLButtonElement).disabled).toBe(true);
    await click(byTestId(`recent-scenario"][data-path="${PATH}`));
    expect(byTestId("scenario-path").textContent).toBe(PATH);
    expect(container.querySelector('[data-testid="run-status"]')).toBeNull();
  });

  it("runs the opened scenario: each lane shows every event of its run, the end apart", async () => {
    await openAndRun();
    expect(byTestId("run-status").dataset.status).toBe("finished");
    for (const lane of ["dynamic", "restart", "baseline"] as const) {
      const events = runEvents(lane);
      const inBlocks = events.filter((e) => e.type !== "run_started" && e.type !== "run_completed");
      expect(shownSeqs(lane)).toEqual(inBlocks.map((e) => e.seq));
      const end = byTestId(`run-end"][data-lane="${lane}`);
      expect(Number(end.dataset.seq)).toBe(events.at(-1)?.seq);
      expect(end.textContent).toContain("Fixed the login flow.");
    }
  });

  it("separates the restart run's second attempt, headed call 3 · attempt 2", async () => {
    await openAndRun();
    const restart = byTestId(`lane"][data-lane="restart`);
    expect(all('[data-lane="dynamic"] [data-testid="attempt-separator"]')).toEqual([]);
    const separators = [...restart.querySelectorAll('[data-testid="attempt-separator"]')];
    expect(separators.map((s) => s.textContent)).toEqual(["attempt 2"]);
    const after = separators[0]?.nextElementSibling as HTMLElement | null;
    expect(after?.dataset).toMatchObject({ testid: "call-block", call: "3", attempt: "2" });
    expect(after?.textContent).toContain("call 3 · attempt 2");
  });

  it("names the first divergence in the report's words and highlights its events", async () => {
    await openAndRun();
    const report = lookupFirstReport();
    expect(report.divergences).toHaveLength(1);
    expect(all('[data-testid="divergence"]').map((line) => line.textContent)).toEqual([
      report.divergences[0]?.first?.explanation,
    ]);
    const highlighted = all(
      '[data-testid="timeline-event"][data-divergence="true"], [data-testid="run-end"][data-divergence="true"]',
    );
    expect(highlighted.map((e) => ({ lane: e.dataset.lane, seq: Number(e.dataset.seq) }))).toEqual(
      divergencePlaces(report),
    );
    expect(highlighted[0]?.textContent).toContain("first divergence");
    expect(highlighted[0]?.dataset.type).toBe("restart");
  });

  it("shows the report's counters, restart minus dynamic, and the savings against the baseline", async () => {
    await openAndRun();
    const rows = counterRows(lookupFirstReport());
    expect(all('[data-testid="counter-row"]').map((row) => row.dataset.counter)).toEqual(rows.map((row) => row.key));
    for (const row of rows) {
      const shown = byTestId(`counter-row"][data-counter="${row.key}`);
      const cell = (name: string) => byTestId(`counter-${name}`, shown).textContent;
      expect([cell("dynamic"), cell("restart"), cell("delta"), cell("baseline")]).toEqual([
        row.values.dynamic?.toLocaleString("en-US"),
        row.values.restart?.toLocaleString("en-US"),
        signed(row.deltas.restart ?? 0),
        row.values.baseline?.toLocaleString("en-US"),
      ]);
    }
    expect(byTestId("counter-delta", byTestId('counter-row"][data-counter="prompt_tokens')).textContent).toBe("+151");
    expect(byTestId("savings-dynamic").textContent).toBe("533 more (+80.3%)");
    expect(byTestId("savings-restart").textContent).toBe("684 more (+103.0%)");
    expect(byTestId("savings-restart").title).toBe(
      "restart used 684 more prompt tokens than the all-FULL baseline (1,348 against 664)",
    );
    expect(byTestId("savings-restart").dataset.saved).toBe("-684");
    expect(byTestId("savings").textContent).not.toMatch(/saved\s*[-−]/);
    expect(all('[data-testid^="status-"]').map((cell) => `${cell.dataset.status ?? ""}: ${cell.textContent}`)).toEqual([
      "completed: completed",
      "completed: completed",
      "completed: completed",
    ]);
  });

  it("shows what each run cost when the comparison was priced, and no cost row otherwise", async () => {
    const { platform } = await openScenario();
    expect(container.querySelector('[data-testid="cost-row"]')).toBeNull();
    const report = lookupFirstReport();
    const [dynamic, restart] = report.runs;
    if (dynamic === undefined || restart === undefined || report.baseline === null)
      throw new Error("the fixture has both runs and a baseline");
    dynamic.cost = costWithTotals(0.00018, 0.00009);
    restart.cost = costWithTotals(0.000205, 0.000115);
    report.baseline.cost = costWithTotals(0.0001, 0.00005);
    platform.compare.report = report;
    await click(byTestId("run-comparison"));
    const row = byTestId("cost-row");
    expect(row.querySelector("th")?.textContent).toBe("Cost (gpt-4o-mini)");
    expect(row.title).toBe("priced as gpt-4o-mini: USD per million tokens, taken 2025-10-01");
    const cell = (name: string) => byTestId(`cost-${name}`, row).textContent;
    expect([cell("dynamic"), cell("restart"), cell("delta"), cell("baseline")]).toEqual([
      "$0.000180",
      "$0.000205",
      "+$0.000025",
      "$0.000100",
    ]);
    const cached = byTestId("cost-cache-row");
    const cachedCell = (name: string) => byTestId(`cost-${name}`, cached).textContent;
    expect(cached.querySelector("th")?.textContent).toBe("With the prompt cache");
    expect([cachedCell("dynamic"), cachedCell("restart"), cachedCell("delta")]).toEqual([
      "$0.000090",
      "$0.000115",
      "+$0.000025",
    ]);
    // A scripted comparison has no provider's own figures.
    expect(container.querySelector('[data-testid="cost-measured-row"]')).toBeNull();
  });

  it("shows the provider's own cache figures beside the estimate when a live run has them", async () => {
    const { platform } = await openScenario();
    const report = lookupFirstReport();
    const [dynamic, restart] = report.runs;
    if (dynamic === undefined || restart === undefined) throw new Error("the fixture has both runs");
    dynamic.cost = {
      ...costWithTotals(0.00018, 0.00009),
      measured: { read_tokens: 900, write_tokens: 300, cost: 0.00012 },
    };
    restart.cost = costWithTotals(0.000205, 0.000115);
    platform.compare.report = report;
    await click(byTestId("run-comparison"));
    const measured = byTestId("cost-measured-row");
    expect(measured.querySelector("th")?.textContent).toBe("With the cache, as measured");
    const cell = (name: string) => byTestId(`cost-${name}`, measured).textContent;
    expect([cell("dynamic"), cell("restart"), cell("delta")]).toEqual(["$0.000120", "—", "—"]);
  });

  it("charts each lane's prompt tokens: every call on the axis, a tooltip per point, the restart marked", async () => {
    await openAndRun();
    const chart = byTestId("token-chart");
    expect([...chart.querySelectorAll(".series")].map((g) => g.getAttribute("data-lane"))).toEqual([
      "dynamic",
      "restart",
      "baseline",
    ]);
    expect(byTestId("chart-max", chart).textContent).toBe("394");
    expect(all('[data-testid="chart-tick"]').map((tick) => tick.textContent)).toEqual(["1", "2", "3", "4", "5"]);
    expect(chart.querySelector("desc")?.textContent).toContain("restart: 205, 221, 291, 307, 324");
    const points = all('[data-testid="chart-point"]');
    expect(points).toHaveLength(4 + 5 + 3);
    for (const point of points) {
      const title = point.querySelector("title")?.textContent ?? "";
      const { lane = "", call = "", attempt = "", tokens = "" } = point.dataset;
      expect(title).toMatch(
        new RegExp(`^${lane}, call ${call}, attempt ${attempt}( \\(discarded\\))?: ${tokens} prompt tokens`),
      );
    }
    const first = byTestId('chart-point"][data-lane="restart"][data-call="1', chart);
    expect(first.dataset.discarded).toBe("true");
    expect(first.querySelector("title")?.textContent).toBe(
      "restart, call 1, attempt 1 (discarded): 205 prompt tokens; 205 so far",
    );
    const restarts = all('[data-testid="chart-restart"]');
    expect(
      restarts.map((mark) => [mark.dataset.lane, mark.dataset.afterCall, mark.querySelector("title")?.textContent]),
    ).toEqual([["restart", "2", "restart, after call 2: restarted to expand a section (context)"]]);
  });

  it("keeps equal lanes apart: each its own marker, drawn to the side, and the legend says where they coincide", async () => {
    await openAndRun();
    const at = (lane: Lane) => byTestId(`chart-point"][data-lane="${lane}"][data-call="1`).querySelector(".marker");
    expect(["dynamic", "restart", "baseline"].map((lane) => at(lane)?.tagName.toLowerCase())).toEqual([
      "circle",
      "rect",
      "path",
    ]);
    const lines = all(".token-chart .series polyline").map((line) => line.getAttribute("points")?.split(" ")[0]);
    expect(new Set(lines).size).toBe(3);
    expect(byTestId("chart-coincide").textContent).toBe(
      "dynamic, restart and baseline coincide at calls 1–2: drawn side by side.",
    );
  });

  it("toggles the chart between each call's prompt tokens and the tokens so far", async () => {
    await openAndRun();
    const chart = byTestId("token-chart");
    expect((byTestId("chart-per-call") as HTMLInputElement).checked).toBe(true);
    await click(byTestId("chart-cumulative"));
    expect(chart.dataset.mode).toBe("cumulative");
    expect(byTestId("chart-max", chart).textContent).toBe("1,348");
    expect(all('[data-testid="chart-point"][data-lane="restart"]').map((point) => point.dataset.value)).toEqual([
      "205",
      "426",
      "717",
      "1024",
      "1348",
    ]);
    expect(chart.querySelector("svg > title")?.textContent).toBe("Prompt tokens so far, call by call");
    expect(chart.querySelector("desc")?.textContent).toContain("dynamic: 205, 426, 803, 1197");
    await click(byTestId("chart-per-call"));
    expect(byTestId("chart-max", chart).textContent).toBe("394");
  });

  it("draws a finished, priced comparison's cost on request: per call and so far, written as money", async () => {
    const { platform } = await openScenario();
    // Priced at $1 per million prompt tokens: each call costs its prompt tokens in millionths.
    const report = pricedLookupFirst();
    platform.compare.report = report;
    // While it runs there is no report, so nothing to price the calls with: tokens alone.
    platform.compare.hold = true;
    await click(byTestId("run-comparison"));
    expect(byTestId("token-chart").dataset.measure).toBe("tokens");
    expect(container.querySelector('[data-testid="chart-cost"]')).toBeNull();
    await act(async () => {
      platform.compare.release();
      await Promise.resolve();
    });
    await settle();
    const chart = byTestId("token-chart");
    expect((byTestId("chart-tokens", chart) as HTMLInputElement).checked).toBe(true);
    expect(byTestId("chart-max", chart).textContent).toBe("394");
    // A call's figures beside it while the pointer is on it, gone when it leaves.
    const point = chart.querySelector<SVGGElement>('[data-testid="chart-point"][data-lane="dynamic"][data-call="2"]');
    act(() => {
      point?.dispatchEvent(new MouseEvent("pointerover", { bubbles: true }));
    });
    expect(byTestId("chart-tooltip", chart).textContent).toBe(point?.querySelector("title")?.textContent);
    act(() => {
      point?.dispatchEvent(new MouseEvent("pointerout", { bubbles: true }));
    });
    expect(chart.querySelector('[data-testid="chart-tooltip"]')).toBeNull();
    await click(byTestId("chart-cost", chart));
    expect(chart.dataset.measure).toBe("cost");
    expect(chart.querySelector(".chart-title")?.textContent).toBe("Cost per model call");
    expect(chart.querySelector("svg > title")?.textContent).toBe("Cost per model call");
    expect(byTestId("chart-max", chart).textContent).toBe("$0.000394");
    const first = byTestId('chart-point"][data-lane="restart"][data-call="1', chart);
    expect([first.dataset.tokens, first.dataset.cost]).toEqual(["205", "0.000205"]);
    expect(first.querySelector("title")?.textContent).toBe(
      "restart, call 1, attempt 1 (discarded): $0.000205 (205 prompt tokens); $0.000205 so far",
    );
    expect(chart.querySelector("desc")?.textContent).toContain(
      "restart: $0.000205, $0.000221, $0.000291, $0.000307, $0.000324 (restarted after call 2;",
    );
    await click(byTestId("chart-cumulative", chart));
    expect(chart.querySelector("svg > title")?.textContent).toBe("Cost so far, call by call");
    expect(byTestId("chart-max", chart).textContent).toBe("$0.001348");
    expect(chart.querySelector("desc")?.textContent).toContain("dynamic: $0.000205, $0.000426, $0.000803, $0.001197;");
    await click(byTestId("chart-tokens", chart));
    expect(byTestId("chart-max", chart).textContent).toBe("1,348");
    expect(chart.querySelector("svg > title")?.textContent).toBe("Prompt tokens so far, call by call");
    // The cost chosen gives way to tokens while the next comparison runs, and comes back with its report.
    await click(byTestId("chart-cost", chart));
    platform.compare.hold = true;
    await click(byTestId("run-comparison"));
    expect(byTestId("token-chart").dataset.measure).toBe("tokens");
    await act(async () => {
      platform.compare.release();
      await Promise.resolve();
    });
    await settle();
    expect(byTestId("token-chart").dataset.measure).toBe("cost");
  });

  it("offers no cost to draw when the comparison was not priced", async () => {
    await openAndRun();
    expect(byTestId("token-chart").dataset.measure).toBe("tokens");
    expect(container.querySelector('[data-testid="chart-tokens"]')).toBeNull();
    expect(container.querySelector('[data-testid="chart-cost"]')).toBeNull();
  });

  it("lines the lanes up by the work each call did: the restart's redone lookup has a row of its own", async () => {
    await openAndRun();
    /** The call in each of a lane's rows ("-": no call there). */
    const rows = (lane: Lane) =>
      all(`[data-testid="lane"][data-lane="${lane}"] > .timeline-cell:not(.lane-head):not(.end):not(.before)`).map(
        (cell) => cell.querySelector<HTMLElement>('[data-testid="call-block"]')?.dataset.call ?? "-",
      );
    expect(rows("dynamic")).toEqual(["1", "2", "-", "3", "4"]);
    expect(rows("restart")).toEqual(["1", "2", "3", "4", "5"]);
    expect(rows("baseline")).toEqual(["1", "-", "-", "2", "3"]);
    expect(
      all('[data-testid="lane"][data-lane="baseline"] [data-testid="no-match"]').map((cell) => cell.textContent),
    ).toEqual(["no matching call", "no matching call"]);
    expect(all('[data-testid="work-differs"]')).toEqual([]);
  });

  it("says so where lanes side by side made different calls", async () => {
    const setUp = await openScenario();
    const report = lookupFirstReport();
    const dynamic = report.runs[0];
    if (dynamic === undefined) throw new Error("the fixture has a dynamic run");
    // Dynamic looks up issue 8 where restart and the baseline look up issue 7.
    dynamic.events = dynamic.events.map((e) =>
      e.type === "tool_call" && e.name === "lookup" ? { ...e, args: { id: 8 } } : e,
    );
    setUp.platform.compare.report = report;
    await click(byTestId("run-comparison"));
    const differs = (lane: Lane) => byTestId(`call-block"][data-lane="${lane}"][data-call="1`);
    expect(differs("dynamic").dataset.work).toBe("different");
    expect(byTestId("work-differs", differs("dynamic")).textContent).toBe(
      "different work: restart called lookup(7); baseline called lookup(7)",
    );
    expect(byTestId("work-differs", differs("restart")).textContent).toBe("different work: dynamic called lookup(8)");
    expect(byTestId('call-block"][data-lane="restart"][data-call="4').dataset.work).toBe("same");
  });

  it("marks the calls the restart discarded, in their blocks and in the detail", async () => {
    await openAndRun();
    const discarded = all('[data-testid="call-block"][data-discarded="true"]');
    expect(discarded.map((block) => `${block.dataset.lane ?? ""} ${block.dataset.call ?? ""}`)).toEqual([
      "restart 1",
      "restart 2",
    ]);
    expect(discarded.map((block) => byTestId("discarded-badge", block).textContent)).toEqual([
      "discarded",
      "discarded",
    ]);
    expect(byTestId("discarded-badge", byTestId('call-block"][data-lane="restart"][data-call="1')).title).toBe(
      "Discarded: the restart after call 2 threw attempt 1 away; its prompt tokens still count",
    );
    expect(
      all('[data-testid="timeline-event"][data-discarded="true"]').map(
        (e) => `${e.dataset.lane ?? ""}:${e.dataset.seq ?? ""}`,
      ),
    ).toEqual(["restart:1", "restart:2", "restart:3", "restart:4"]);
    await click(event("restart", 2));
    const detail = byTestId("event-detail");
    expect(byTestId("detail-discarded", detail).textContent).toBe("discarded");
    expect(detail.textContent).toContain("the restart after call 2 threw attempt 1 away; made again at call 3");
    await click(event("restart", 6));
    expect(byTestId("event-detail").textContent).toContain("Reasonrestarted to expand a section");
    expect(byTestId("event-detail").textContent).not.toContain("visibility_expansion");
    await click(event("restart", 7));
    expect(container.querySelector('[data-testid="detail-discarded"]')).toBeNull();
  });

  it("shows the picked event and the request its adapter sent at that call", async () => {
    await openAndRun();
    const call3 = event("restart", 7);
    await click(call3);
    expect(call3.getAttribute("aria-pressed")).toBe("true");
    const detail = byTestId("event-detail");
    expect(detail.textContent).toContain("restart · #7 · attempt 2");
    expect(detail.textContent).toContain("lookup, search, cite, read_section");
    expect(byTestId("detail-system").textContent).toBe("system prompt of restart call 3");
    expect(JSON.parse(byTestId("detail-response").textContent)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ function: { name: "lookup" } }],
    });
    const tools = JSON.parse(byTestId("detail-tools").textContent) as { function: { name: string } }[];
    expect(tools.map(toolNameOf)).toEqual(["lookup", "search", "cite", "read_section"]);
  });

  it("says what changed against the lane's previous call, or another lane's call of the same number", async () => {
    const { platform } = await openAndRun();
    await click(event("restart", 7));
    expect((byTestId("diff-target") as HTMLSelectElement).value).toBe("previous");
    expect(byTestId("request-diff").textContent).toContain("From restart's call 2 (attempt 1) to this one:");
    expect([...byTestId("diff-summary").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "Tools added: search, cite",
      "System prompt: 2 lines changed",
    ]);
    expect([...byTestId("diff-system").querySelectorAll("span")].map((line) => line.className)).toEqual([
      "diff-removed",
      "diff-added",
    ]);
    expect(byTestId("diff-system").textContent).toBe(
      "− system prompt of restart call 2\n+ system prompt of restart call 3\n",
    );
    // Against the dynamic lane's call 3: the same tools, the prompt's line apart.
    choose(byTestId("diff-target"), "lane:dynamic");
    await settle();
    expect(platform.argsOf("comparisonCall").at(-1)?.slice(1)).toEqual(["dynamic", 3]);
    expect([...byTestId("diff-summary").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "System prompt: 2 lines changed",
    ]);
    // A lane's first call has nothing before it.
    choose(byTestId("diff-target"), "previous");
    await settle();
    await click(event("restart", 1));
    expect(byTestId("diff-none").textContent).toBe("This is the lane's first call: there is nothing before it.");
  });

  it("closes the event detail with its labelled button and gives the focus back to the picked event", async () => {
    const { call3 } = await picked();
    const close = byTestId("close-event-detail");
    expect(close.getAttribute("aria-label")).toBe("Close the event detail");
    expect(close.title).toBe("Close the event detail (Esc)");
    expect(byTestId("event-detail-panel").contains(close)).toBe(true);
    close.focus();
    await click(close);
    expect(detailShown()).toBe(false);
    expect(container.querySelector('[data-testid="event-detail-panel"]')).toBeNull();
    expect(call3.getAttribute("aria-pressed")).toBe("false");
    expect(document.activeElement).toBe(call3);
    expect(call3.isConnected).toBe(true);
  });

  it("closes the event detail on Escape, from the picked event, inside the detail or with the focus nowhere", async () => {
    const { call3, store } = await picked();
    const press = await pressEscape(call3);
    expect(detailShown()).toBe(false);
    expect(press.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(call3);

    await click(call3);
    const copy = byTestId("copy-system");
    copy.focus();
    await pressEscape(copy);
    expect(detailShown()).toBe(false);
    expect(document.activeElement).toBe(call3);

    await click(event("dynamic", 2));
    await pressEscape(document.body);
    expect(detailShown()).toBe(false);
    expect(store.comparison.getState().picked).toBeNull();
    expect(document.activeElement).toBe(event("dynamic", 2));
  });

  it("leaves Escape to a field, a modified Escape and another part of the page", async () => {
    await picked();
    const name = byTestId("scenario-name");
    name.focus();
    await pressEscape(name);
    expect(detailShown()).toBe(true);
    act(() => {
      event("restart", 7).dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", ctrlKey: true, bubbles: true }));
    });
    expect(detailShown()).toBe(true);
    const elsewhere = document.createElement("button");
    document.body.append(elsewhere);
    await pressEscape(elsewhere);
    elsewhere.remove();
    expect(detailShown()).toBe(true);
  });

  it("leaves Escape in the providers dialog to the dialog: it closes, the event detail stays", async () => {
    const { call3 } = await picked();
    await click(byTestId("providers-button"));
    const dialog = byTestId("providers-dialog");
    await pressEscape(dialog.querySelector("button") ?? dialog);
    expect(container.querySelector('[data-testid="providers-dialog"]')).toBeNull();
    expect(detailShown()).toBe(true);
    await pressEscape(call3);
    expect(detailShown()).toBe(false);
  });

  it("marks the parts an end-to-end test measures: the lanes, the counters and the detail's pane", async () => {
    await openAndRun();
    expect(byTestId("counters", byTestId("counters-box")).tagName).toBe("TABLE");
    expect(byTestId("timeline-lanes", byTestId("compare-results")).className).toContain("lanes-3");
    const heads = all('[data-testid="lane"] > [data-testid="lane-head"]');
    expect(heads.map((head) => head.textContent)).toEqual([
      expect.stringMatching(/^dynamic/),
      expect.stringMatching(/^restart/),
      expect.stringMatching(/^baseline/),
    ]);
    expect(container.querySelector(".compare-main-grid.with-detail")).toBeNull();
    await click(event("restart", 7));
    expect(container.querySelector(".compare-main-grid.with-detail")).not.toBeNull();
    expect(byTestId("event-detail", byTestId("event-detail-panel")).textContent).toContain("restart · #7 · attempt 2");
  });

  it("shows a tool call's arguments and result as text, never as HTML", async () => {
    const { platform, store } = setup();
    const report = lookupFirstReport();
    const lookup = report.runs[0]?.events[2];
    if (lookup?.type !== "tool_call") throw new Error("the dynamic run's event 2 is lookup");
    lookup.result = "<img src=x alt=injected>";
    platform.compare.report = report;
    await render(store, platform);
    await act(() => store.scenario.openPath(PATH));
    await click(byTestId("run-comparison"));
    await click(event("dynamic", 2));
    expect(byTestId("event-detail").textContent).toContain('"<img src=x alt=injected>"');
    expect(container.querySelector("img")).toBeNull();
  });

  it("copies a part of the request and says so", async () => {
    await openAndRun();
    await click(event("dynamic", 1));
    await click(byTestId("copy-system"));
    expect(byTestId("event-detail").textContent).toContain("Copied");
    expect(await navigator.clipboard.readText()).toBe("system prompt of dynamic call 1");
  });

  it("streams a held comparison without a divergence yet, then cancels it", async () => {
    const { platform } = await openScenario();
    platform.compare.hold = true;
    await click(byTestId("run-comparison"));
    const status = byTestId("run-status");
    expect(status.dataset.status).toBe("running");
    expect(status.textContent).toBe("Running the dynamic run (1 of 3): 11 events so far");
    expect(shownSeqs("dynamic")).toHaveLength(9);
    expect(shownSeqs("restart")).toEqual([]);
    expect(all('[data-divergence="true"]')).toEqual([]);
    expect((byTestId("run-comparison") as HTMLButtonElement).disabled).toBe(true);
    await click(byTestId("cancel-comparison"));
    expect(byTestId("run-status").dataset.status).toBe("cancelled");
    expect(container.querySelector('[data-testid="cancel-comparison"]')).toBeNull();
    expect((byTestId("export-report") as HTMLButtonElement).disabled).toBe(true);
  });

  it("hides and shows the baseline lane", async () => {
    await openAndRun();
    const toggle = byTestId("baseline-toggle") as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    await click(toggle);
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual(["dynamic", "restart"]);
    await click(toggle);
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual(["dynamic", "restart", "baseline"]);
  });

  it("cannot run a scenario with problems", async () => {
    const { platform, store } = setup();
    platform.compare.disk.set(PATH, { ...lookupFirstScenario(), params: { nope: "x" } });
    await render(store, platform);
    await act(() => store.scenario.openPath(PATH));
    const run = byTestId("run-comparison") as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    expect(run.title).toBe("Fix the scenario's problems first");
  });

  it("exports the finished comparison and says where", async () => {
    const { platform } = await openAndRun();
    platform.chosenPath = "/out/report.json";
    await click(byTestId("export-report"));
    expect(byTestId("compare-notice").textContent).toContain("Wrote the comparison report to /out/report.json");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_report", "task-executor-lookup-first.comparison.json"]);
    expect(platform.argsOf("exportComparison").at(-1)?.slice(1)).toEqual(["/out/report.json", "json"]);
    // The comparison to paste into a pull request: Markdown, in a file the user names.
    platform.chosenPath = "/out/comparison.md";
    await click(byTestId("export-markdown"));
    expect(byTestId("compare-notice").textContent).toContain("Wrote the comparison as Markdown to /out/comparison.md");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_markdown", "task-executor-lookup-first.comparison.md"]);
    expect(platform.argsOf("exportComparison").at(-1)?.slice(1)).toEqual(["/out/comparison.md", "markdown"]);
    platform.chosenPath = "/out/requests";
    const requests = (api: string) => byTestId(`export-requests"][data-api="${api}`);
    await click(requests("openai-chat"));
    expect(byTestId("compare-notice").textContent).toContain("Wrote 12 request bodies (OpenAI Chat) to /out/requests");
    expect(platform.argsOf("exportRequests").at(-1)?.[2]).toBe("openai-chat");
    // The same calls in another API's shape: an item of the Export menu each.
    expect([...container.querySelectorAll('[data-testid="export-requests"]')].map((item) => item.textContent)).toEqual([
      "Request bodies, OpenAI Chat…",
      "Request bodies, OpenAI Responses…",
      "Request bodies, Anthropic Messages…",
    ]);
    platform.chosenPath = "/out/anthropic";
    await click(requests("anthropic"));
    expect(byTestId("compare-notice").textContent).toContain(
      "Wrote 12 request bodies (Anthropic Messages) to /out/anthropic",
    );
    expect(platform.argsOf("exportRequests").at(-1)?.slice(1)).toEqual(["/out/anthropic", "anthropic"]);
  });

  it("saves the chart as drawn, a standalone SVG with its title and legend, for a doc", async () => {
    const { platform } = await openAndRun();
    platform.chosenPath = "/out/chart.svg";
    await click(byTestId("export-chart-svg"));
    expect(byTestId("compare-notice").textContent).toContain("Saved the chart as SVG to /out/chart.svg");
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_chart_svg", "task-executor-lookup-first.chart.svg"]);
    const saved = platform.compare.exported.get("/out/chart.svg") ?? "";
    expect(saved.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const picture = new DOMParser().parseFromString(saved, "image/svg+xml").documentElement;
    expect([picture.localName, picture.getAttribute("xmlns")]).toEqual(["svg", "http://www.w3.org/2000/svg"]);
    const texts = [...picture.querySelectorAll("text")].map((text) => text.textContent);
    expect(texts[0]).toBe("Prompt tokens per model call");
    expect(texts.slice(-4)).toEqual(["model call", "dynamic", "restart", "baseline"]);
    // Every lane's line and every call's marker, as drawn; not the pointer's targets or the app's hooks.
    const drawnLines = all('[data-testid="token-chart"] .series polyline').length;
    expect(picture.querySelectorAll("g > polyline").length).toBe(drawnLines + 3); // and the legend's swatches
    expect(saved).not.toMatch(/class="hit"|data-testid|<desc/);
  });

  it("adds the finished comparison to a suite as a case, once its files are saved as it ran", async () => {
    const { platform, store } = await openAndRun();
    platform.chosenPath = "/s/disclosure.suite.json";
    await click(byTestId("add-to-suite"));
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["save_suite", "/s/task-executor.suite.json"]);
    expect(platform.argsOf("addToSuite").at(-1)?.slice(1)).toEqual([
      "/s/disclosure.suite.json",
      "/t/task.unfold.json",
      PATH,
    ]);
    expect(byTestId("compare-notice").textContent).toContain(
      "Added the case “lookup-first” to /s/disclosure.suite.json",
    );
    // A scenario changed since it was saved would not be what the case runs: it is saved first.
    await act(() => store.scenario.edit({ ...lookupFirstScenario(), name: "changed" }, null));
    await settle();
    expect(byTestId("add-to-suite").title).toBe(
      "Save the scenario first: a suite case names its file, and runs it as saved",
    );
    await click(byTestId("add-to-suite"));
    expect(byTestId("compare-failure").textContent).toContain("Save the scenario first");
    expect(platform.argsOf("addToSuite")).toHaveLength(1);
  });

  it("says why a scenario did not open, until dismissed", async () => {
    const { platform } = await openScenario();
    platform.chosenPath = "/s/missing.scenario.json";
    await click(byTestId("open-scenario"));
    const failure = byTestId("compare-failure");
    expect(failure.textContent).toContain("The scenario was not opened");
    expect(byTestId("scenario-path").textContent).toBe(PATH);
    await click(failure.querySelector("button") as HTMLElement);
    expect(container.querySelector('[data-testid="compare-failure"]')).toBeNull();
  });

  it("leaves Save, Undo and Redo to the header's buttons, and keeps Save as in the toolbar", async () => {
    await openScenario();
    for (const id of ["save-scenario", "undo-scenario", "redo-scenario"]) {
      expect(container.querySelector(`[data-testid="${id}"]`)).toBeNull();
    }
    expect((byTestId("save-scenario-as") as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows a run that hits a limit: its status, and the limit where it happened", async () => {
    const setUp = await openScenario();
    const report = lookupFirstReport();
    const restart = report.runs[1];
    if (restart === undefined) throw new Error("the fixture has a restart run");
    // The restart run as it ends when max_model_calls is 2: its third call is never made.
    const kept = restart.events.filter((event) => event.seq <= 6);
    const limit: RunEvent = { type: "limit_reached", limit: "max_model_calls", value: 2, seq: 7, attempt: 2 };
    const end: RunEvent = { type: "run_completed", status: "turn_limit", final: null, seq: 8, attempt: 2 };
    report.runs[1] = { ...restart, status: "turn_limit", final: null, events: [...kept, limit, end] };
    setUp.platform.compare.report = report;
    await click(byTestId("run-comparison"));
    expect(byTestId("run-status").dataset.status).toBe("finished");
    expect(byTestId("run-status").textContent).toBe(
      "Finished: dynamic completed, restart stopped at the model call limit, baseline completed",
    );
    expect(byTestId("status-restart").textContent).toBe("stopped at the model call limit");
    const marker = all('[data-testid="timeline-event"][data-lane="restart"][data-type="limit_reached"]');
    expect(marker.map((element) => element.textContent)).toEqual(["reached the limit of 2 model calls"]);
    expect(all('[data-testid="run-end"][data-lane="restart"]').map((element) => element.textContent)).toEqual([
      expect.stringContaining("run stopped at the model call limit"),
    ]);
    expect(byTestId("compare-results").textContent).not.toMatch(/turn_limit|max_model_calls|visibility_expansion/);
  });
});

/** The view with lookup-first open and the profiles `local` (no key) and `remote` (key in REMOTE_KEY, not set). */
async function openWithProfiles(): Promise<{ platform: FakePlatform; store: CompareStores }> {
  const setUp = setup();
  const remote = {
    ...localProfile("remote"),
    model: "gpt-4.1-mini",
    base_url: "https://api.openai.com/v1",
    api_key_env: "REMOTE_KEY",
  };
  setUp.platform.compare.profiles = [localProfile(), remote];
  await render(setUp.store, setUp.platform);
  await act(() => setUp.store.scenario.openPath(PATH));
  await settle();
  return setUp;
}

function runButton(): HTMLButtonElement {
  return byTestId("run-comparison") as HTMLButtonElement;
}

describe("CompareView models", () => {
  it("offers the script and one live model per profile; the script runs by default, with no live note", async () => {
    await openWithProfiles();
    const picker = byTestId("comparison-model") as HTMLSelectElement;
    expect([...picker.options].map((option) => [option.value, option.textContent])).toEqual([
      ["scripted", "Scripted (the scenario's script)"],
      ["live:local", "local · qwen3"],
      ["live:remote", "remote · gpt-4.1-mini"],
    ]);
    expect(picker.value).toBe("scripted");
    expect(picker.title).toBe("Scripted (the scenario's script)");
    expect(runButton().title).toBe(
      "Replay the scenario under the dynamic and restart adapters and the all-FULL baseline (Ctrl+Enter)",
    );
    expect(container.querySelector('[data-testid="live-note"]')).toBeNull();
  });

  it("offers every adapter for the script too, dynamic and restart ticked, each explained in its title", async () => {
    await openWithProfiles();
    const boxes = all('[data-testid^="adapter-"]') as HTMLInputElement[];
    expect(boxes.map((box) => [box.dataset.testid, box.checked])).toEqual([
      ["adapter-dynamic", true],
      ["adapter-restart", true],
      ["adapter-allowed_tools", false],
      ["adapter-deferred", false],
      ["adapter-tool_addition", false],
    ]);
    expect(boxes.map((box) => box.closest("label")?.textContent.trim())).toEqual([
      "dynamic",
      "restart",
      "allowed tools",
      "deferred",
      "tool addition",
    ]);
    for (const box of boxes) expect(box.closest("label")?.title).not.toBe("");
    expect(byTestId("adapter-allowed_tools").closest("label")?.title).toBe(
      "Sends every tool from the first call; reading a section widens the callable subset (OpenAI allowed_tools), so the prompt start never changes",
    );
  });

  it("keeps the adapters ticked when switching between the script and a live model", async () => {
    await openWithProfiles();
    await click(byTestId("adapter-deferred"));
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    expect(runButton().title).toContain("under the dynamic, restart, and deferred adapters;");
    await click(byTestId("adapter-dynamic"));
    choose(byTestId("comparison-model"), "scripted");
    await settle();
    expect(runButton().title).toBe(
      "Replay the scenario under the restart and deferred adapters and the all-FULL baseline (Ctrl+Enter)",
    );
  });

  it("cannot compare the script with no adapter ticked, and says why", async () => {
    const { platform, store } = await openWithProfiles();
    await click(byTestId("adapter-dynamic"));
    expect(runButton().title).toBe(
      "Replay the scenario under the restart adapter and the all-FULL baseline (Ctrl+Enter)",
    );
    await click(byTestId("adapter-restart"));
    expect(runButton().disabled).toBe(true);
    expect(runButton().title).toBe("Tick at least one adapter to compare");
    await act(() => store.comparison.run());
    expect(platform.argsOf("runComparison")).toEqual([]);
  });

  it("adds a host lane from the presets, runs it after the adapters and takes it out again", async () => {
    const { platform } = await openWithProfiles();
    const picker = byTestId("host-picker") as HTMLSelectElement;
    const offered = [...picker.options].map((option) => option.value).filter((value) => value !== "");
    expect(offered).toContain("codex");
    expect(picker.querySelector('option[value="codex"]')?.textContent).toBe("codex · never in the conversation");
    expect(picker.querySelector('option[value="claude-code"]')?.textContent).toBe("claude-code · 1 call late");
    choose(picker, "codex");
    await settle();
    const codex = byTestId("host-codex") as HTMLInputElement;
    expect(codex.checked).toBe(true);
    expect(codex.closest("label")?.title).toMatch(/^Codex CLI 0\.171\.0: shows a tool revealed mid-conversation never/);
    expect([...(byTestId("host-picker") as HTMLSelectElement).options].map((o) => o.value)).not.toContain("codex");
    expect(runButton().title).toBe(
      "Replay the scenario under the dynamic and restart adapters and host:codex and the all-FULL baseline (Ctrl+Enter)",
    );
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["dynamic", "restart"],
      hosts: ["codex"],
    });
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual([
      "dynamic",
      "restart",
      "host:codex",
      "baseline",
    ]);
    const counters = byTestId("counters");
    expect([...counters.querySelectorAll("thead th")].map((th) => th.textContent)).toContain("host:codex");
    await click(byTestId("host-codex"));
    expect(container.querySelector('[data-testid="host-codex"]')).toBeNull();
    expect(runButton().title).toBe(
      "Replay the scenario under the dynamic and restart adapters and the all-FULL baseline (Ctrl+Enter)",
    );
  });

  it("runs an installed real host after the lanes once the user allows what it starts, and never unasked", async () => {
    const { platform } = await openWithProfiles();
    const picker = byTestId("real-host-picker") as HTMLSelectElement;
    const offered = [...picker.options].map((option) => option.textContent);
    // Installed hosts only, with their versions; the command host needs a program the app cannot take.
    expect(offered).toEqual(["Run a real host…", "openai-agents 0.24.0", "openai-agents-cached 0.24.0"]);
    choose(picker, "openai-agents");
    await settle();
    expect((byTestId("real-host-openai-agents") as HTMLInputElement).checked).toBe(true);
    expect(runButton().title).toBe(
      "Replay the scenario under the dynamic and restart adapters, run real:openai-agents against it, and the all-FULL baseline (Ctrl+Enter)",
    );
    await click(runButton());
    const dialog = byTestId("run-hosts-dialog");
    expect(dialog.querySelector("h2")?.textContent).toBe("Start agent host 'openai-agents'?");
    expect(byTestId("run-host-starts").textContent).toBe("program: /h/openai-agents/bin/python\nenv: HOME={run}/home");
    expect(platform.argsOf("runComparison")).toEqual([]);
    await click(byTestId("run-hosts-cancel"));
    expect(container.querySelector('[data-testid="run-hosts-dialog"]')).toBeNull();
    expect(platform.argsOf("runComparison")).toEqual([]);

    await click(runButton());
    await click(byTestId("run-hosts-allow"));
    expect(platform.argsOf("allowRealHost")).toEqual([["openai-agents"]]);
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ realHosts: ["openai-agents"] });
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual([
      "dynamic",
      "restart",
      "real:openai-agents",
      "baseline",
    ]);
    const realHead = byTestId('lane"][data-lane="real:openai-agents');
    expect(realHead.querySelector(".lane-note")?.textContent).toBe("the real agent host, version 0.24.0");
    // Allowed once, it is not asked again.
    await click(runButton());
    expect(container.querySelector('[data-testid="run-hosts-dialog"]')).toBeNull();
    expect(platform.argsOf("runComparison")).toHaveLength(2);
  });

  it("forks a real host's lane into the host again, and offers the host to the other lanes' forks", async () => {
    const { platform } = await openWithProfiles();
    choose(byTestId("real-host-picker"), "openai-agents");
    await settle();
    await click(runButton());
    await click(byTestId("run-hosts-allow"));
    const forkLanes = () =>
      all('[data-testid="fork-lane"]').map((box) => [box.dataset.lane, (box as HTMLInputElement).checked]);
    await click(byTestId('timeline-event"][data-lane="dynamic"][data-seq="2'));
    await click(byTestId("fork-from-here"));
    expect(forkLanes()).toEqual([
      ["dynamic", true],
      ["restart", false],
      ["real:openai-agents", false],
    ]);
    await click(byTestId("fork-cancel"));
    await click(byTestId('timeline-event"][data-lane="real:openai-agents"][data-seq="2'));
    await click(byTestId("fork-from-here"));
    expect(byTestId("fork-dialog").textContent).toContain("Fork real:openai-agents at event 2");
    await click(byTestId("fork-run"));
    expect(platform.compare.forks.at(-1)).toMatchObject({
      parent: { comparison: { lane: "real:openai-agents" } },
      lanes: ["real:openai-agents"],
    });
  });

  it("runs the script under all four adapters ticked, in order, then the baseline: a lane, a column and a divergence for each", async () => {
    const { platform } = await openWithProfiles();
    await click(byTestId("adapter-allowed_tools"));
    await click(byTestId("adapter-deferred"));
    expect(runButton().title).toBe(
      "Replay the scenario under the dynamic, restart, allowed tools, and deferred adapters and the all-FULL baseline (Ctrl+Enter)",
    );
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
      live: null,
    });
    expect(byTestId("run-status").dataset.status).toBe("finished");
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual([
      "dynamic",
      "restart",
      "allowed_tools",
      "deferred",
      "baseline",
    ]);
    expect(all('[data-testid="lane-head"] h4').map((head) => head.textContent)).toEqual([
      "dynamic",
      "restart",
      "allowed tools",
      "deferred",
      "baseline",
    ]);
    expect(byTestId("timeline-lanes").className).toContain("lanes-5");
    const counters = byTestId("counters");
    expect([...counters.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual([
      "Counter",
      "dynamic",
      "restart",
      "allowed tools",
      "deferred",
      "baseline",
    ]);
    // With more than two runs each later run's difference from the first sits under its value.
    expect(counters.querySelector("caption")?.textContent).toBe(
      "Counters · under each later run, its difference from dynamic",
    );
    const tokens = byTestId('counter-row"][data-counter="prompt_tokens');
    expect(tokens.querySelector('[data-testid="counter-restart"] .value')?.textContent).toBe("1,348");
    const deltas = [...tokens.querySelectorAll<HTMLElement>('[data-testid="counter-delta"]')];
    expect(deltas.map((cell) => [cell.dataset.lane, cell.dataset.against, cell.textContent])).toEqual([
      ["restart", "dynamic", "+151"],
      ["allowed_tools", "dynamic", "0"],
      ["deferred", "dynamic", "0"],
    ]);
    // Every adapter's run has its savings against the baseline (the new two made dynamic's calls).
    expect(
      ["dynamic", "restart", "allowed_tools", "deferred"].map((adapter) => byTestId(`savings-${adapter}`).textContent),
    ).toEqual(["533 more (+80.3%)", "684 more (+103.0%)", "533 more (+80.3%)", "533 more (+80.3%)"]);
    const lines = all('[data-testid="divergence"]');
    expect(lines.map((line) => [line.dataset.left, line.dataset.right])).toEqual([
      ["dynamic", "restart"],
      ["dynamic", "allowed_tools"],
      ["dynamic", "deferred"],
    ]);
    const explanation = lookupFirstReport().divergences[0]?.first?.explanation ?? "";
    expect(lines.map((line) => line.textContent)).toEqual([
      `restart against dynamic: ${explanation}`,
      "allowed tools against dynamic: none: the runs made the same calls with the same results and ended the same way",
      "deferred against dynamic: none: the runs made the same calls with the same results and ended the same way",
    ]);
    // The injections of the two new lanes say how the tools reached the model.
    const injected = (lane: string) =>
      all(`[data-testid="timeline-event"][data-lane="${lane}"][data-type="tools_injected"]`).map((e) => e.textContent);
    expect(injected("dynamic")[0]).toMatch(/^injected /);
    expect(injected("allowed_tools")[0]).toMatch(/^tools allowed: /);
    expect(injected("deferred")[0]).toMatch(/^tools loaded by reference: /);
  });

  it("says what a live run does and will run, with both adapters ticked", async () => {
    await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    // The whole choice in the tooltip, however narrow the picker.
    expect(byTestId("comparison-model").title).toBe("local · qwen3");
    expect((byTestId("adapter-dynamic") as HTMLInputElement).checked).toBe(true);
    expect((byTestId("adapter-restart") as HTMLInputElement).checked).toBe(true);
    expect(byTestId("live-note").textContent).toContain(
      "A live run sends the scenario's user message to qwen3 at http://127.0.0.1:11434/v1 and does not use the script; the all-FULL baseline is not run; a real host's requests go to the model too.",
    );
    expect(runButton().disabled).toBe(false);
    expect(runButton().title).toBe(
      "Send the scenario's user message to qwen3 (local) under the dynamic and restart adapters; the script and the baseline are not used (Ctrl+Enter)",
    );
    expect(container.querySelector('[data-testid="live-key-missing"]')).toBeNull();
  });

  it("warns, naming the variable, when the chosen profile's key is not set", async () => {
    const { platform, store } = await openWithProfiles();
    choose(byTestId("comparison-model"), "live:remote");
    await settle();
    const warning = byTestId("live-key-missing");
    expect(warning.textContent).toContain(
      "The environment variable REMOTE_KEY that remote's key comes from is not set",
    );
    expect(warning.querySelector("code")?.textContent).toBe("REMOTE_KEY");
    platform.compare.environment.add("REMOTE_KEY");
    await act(() => store.providers.loadProfiles());
    expect(container.querySelector('[data-testid="live-key-missing"]')).toBeNull();
  });

  it("warns when the keychain holds no key for the chosen profile", async () => {
    const { platform, store } = await openWithProfiles();
    platform.compare.profiles.push({ ...localProfile("vault"), api_key_keychain: true });
    await act(() => store.providers.loadProfiles());
    choose(byTestId("comparison-model"), "live:vault");
    await settle();
    expect(byTestId("live-key-missing").textContent).toContain(
      "The OS keychain holds no key for vault: the run would fail",
    );
    expect(byTestId("live-key-missing").querySelector("code")?.textContent).toBe("unfold key set vault");
  });

  it("cannot run live with no adapter ticked, and says why", async () => {
    await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    await click(byTestId("adapter-dynamic"));
    expect(runButton().title).toContain("under the restart adapter;");
    await click(byTestId("adapter-restart"));
    expect(runButton().disabled).toBe(true);
    expect(runButton().title).toBe("Tick at least one adapter to run live");
  });

  it("keeps a live model whose profile is gone chosen, and says it no longer exists", async () => {
    const { store } = await openWithProfiles();
    choose(byTestId("comparison-model"), "live:remote");
    await settle();
    await act(() => store.providers.saveProfiles([localProfile()]));
    await settle();
    const picker = byTestId("comparison-model") as HTMLSelectElement;
    expect(picker.value).toBe("live:remote");
    expect(picker.selectedOptions[0]?.textContent).toBe("remote · no such profile");
    expect(runButton().disabled).toBe(true);
    expect(runButton().title).toBe("The provider profile 'remote' no longer exists: choose another model");
    expect(byTestId("live-note").textContent).toContain("The provider profile 'remote' no longer exists");
  });

  it("shows a live run of one adapter: its counters, chart and lane, no baseline and no divergence", async () => {
    const { platform } = await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    await click(byTestId("adapter-dynamic"));
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({
      adapters: ["restart"],
      live: { profile: "local" },
    });
    expect(byTestId("run-status").textContent).toBe("Finished: restart completed");
    expect(byTestId("divergence").textContent).toBe("none: only one adapter ran");
    const counters = byTestId("counters");
    expect([...counters.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual(["Counter", "restart"]);
    const restart = liveReport(["restart"]).runs[0];
    expect(byTestId("counter-restart", byTestId('counter-row"][data-counter="prompt_tokens')).textContent).toBe(
      restart?.counters.prompt_tokens.toLocaleString("en-US"),
    );
    expect(counters.querySelector('[data-testid="savings"]')).toBeNull();
    const chart = byTestId("token-chart");
    expect([...chart.querySelectorAll(".series")].map((g) => g.getAttribute("data-lane"))).toEqual(["restart"]);
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual(["restart"]);
    expect(container.querySelector('[data-testid="baseline-toggle"]')).toBeNull();
    expect(shownSeqs("restart")).toEqual(
      runEvents("restart")
        .filter((e) => e.type !== "run_started" && e.type !== "run_completed")
        .map((e) => e.seq),
    );
  });

  it("shows what a live model is writing at the end of its lane, as text", async () => {
    const { platform } = await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    platform.compare.holdWhileWriting = true;
    await click(runButton());
    const writing = byTestId("lane-writing", byTestId('lane"][data-lane="dynamic'));
    const final = lookupFirstReport().runs[0]?.final ?? "";
    expect(writing.textContent).toBe(final.slice(0, 5));
    expect(writing.children).toHaveLength(0);
    await act(async () => {
      platform.compare.release();
      await Promise.resolve();
    });
    await settle();
    expect(container.querySelector('[data-testid="lane-writing"]')).toBeNull();
  });

  it("shows a live run of both adapters side by side with their delta and divergence, without a baseline", async () => {
    await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    await click(runButton());
    expect(all('[data-testid="lane"]').map((lane) => lane.dataset.lane)).toEqual(["dynamic", "restart"]);
    expect([...byTestId("counters").querySelectorAll("thead th")].map((th) => th.textContent)).toEqual([
      "Counter",
      "dynamic",
      "restart",
      "restart − dynamic",
    ]);
    expect(byTestId("counter-delta", byTestId('counter-row"][data-counter="prompt_tokens')).textContent).toBe("+151");
    expect(byTestId("divergence").textContent).toBe(lookupFirstReport().divergences[0]?.first?.explanation);
    expect(all('[data-testid="counter-baseline"]')).toEqual([]);
  });

  it("counts a running live run's lanes out of its own", async () => {
    const { platform } = await openWithProfiles();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    platform.compare.hold = true;
    await click(runButton());
    expect(byTestId("run-status").textContent).toMatch(/^Running the dynamic run \(1 of 2\)/);
    platform.compare.release();
    await settle();
  });
});

describe("CompareView price", () => {
  function pricePicker(): HTMLSelectElement | null {
    return container.querySelector<HTMLSelectElement>('[data-testid="price-as-picker"]');
  }

  it("reads the priced models once, and offers the default model then each of them for the script", async () => {
    const { platform } = await openWithProfiles();
    expect(platform.argsOf("pricedModels")).toHaveLength(1);
    const select = pricePicker();
    expect([...(select?.options ?? [])].map((option) => [option.value, option.textContent])).toEqual([
      ["", "claude-sonnet-4-5 (default)"],
      ["claude-sonnet-4-5", "claude-sonnet-4-5"],
      ["gpt-4o-mini", "gpt-4o-mini"],
      ["qwen3", "qwen3"],
    ]);
    expect(select?.value).toBe("");
    expect(select?.closest("label")?.title).toBe(
      "Price every run as if this model had answered it (prices: Unfold's, overridden by your prices.json)",
    );
  });

  it("offers No price when the prices have no default model", async () => {
    const { platform, store } = setup();
    platform.compare.defaultModel = null;
    await render(store, platform);
    expect(pricePicker()?.options[0]?.textContent).toBe("No price");
  });

  it("sends the model chosen with the next comparison, and null for the default", async () => {
    const { platform } = await openWithProfiles();
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ live: null, priceAs: null });
    choose(byTestId("price-as-picker"), "gpt-4o-mini");
    await settle();
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toEqual({
      adapters: ["dynamic", "restart"],
      hosts: [],
      realHosts: [],
      live: null,
      relaySession: null,
      priceAs: "gpt-4o-mini",
    });
    choose(byTestId("price-as-picker"), "");
    await settle();
    await click(runButton());
    expect(platform.argsOf("runComparison")).toHaveLength(3);
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ priceAs: null });
  });

  it("hides the picker for a live model and sends no price (it is priced as its own model)", async () => {
    const { platform } = await openWithProfiles();
    choose(byTestId("price-as-picker"), "qwen3");
    await settle();
    choose(byTestId("comparison-model"), "live:local");
    await settle();
    expect(pricePicker()).toBeNull();
    expect(byTestId("live-note").textContent).toContain("Its runs are priced as qwen3 when the prices know it.");
    await click(runButton());
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ live: { profile: "local" }, priceAs: null });
    // Back on the script, the choice made before is still there.
    choose(byTestId("comparison-model"), "scripted");
    await settle();
    expect(pricePicker()?.value).toBe("qwen3");
  });

  it("says why the prices could not be read, and offers no price to choose", async () => {
    const { platform, store } = setup();
    const message = "/home/u/.config/unfold/prices.json: expected value at line 1 column 1";
    platform.failures.set("pricedModels", { code: "invalid_request", message, problems: [] });
    await render(store, platform);
    expect(byTestId("compare-failure").textContent).toContain("The prices could not be read");
    expect(byTestId("compare-failure").textContent).toContain(message);
    expect(pricePicker()).toBeNull();
  });
});

describe("CompareView tool sources before a run", () => {
  /** The view over the template with sources (none allowed yet), its scenario open. */
  async function openWithSources(
    sourcesAllowed?: () => void,
  ): Promise<{ platform: FakePlatform; store: CompareStores }> {
    return openScenario(templateWithSources(), sourcesAllowed);
  }

  function dialogShown(): boolean {
    return container.querySelector('[data-testid="run-sources-dialog"]') !== null;
  }

  function askedNames(): string[] {
    return all('[data-testid="run-source"]').map((row) => row.dataset.name ?? "");
  }

  function row(name: string): HTMLElement {
    return byTestId(`run-source"][data-name="${name}`);
  }

  /** `platform.template` with the command of its source `ide` replaced by `command`. */
  function withIdeCommand(platform: FakePlatform, command: string[]): Template {
    const sources = (platform.template.sources ?? []).map((source) =>
      source.name === "ide" && source.mcp !== undefined ? { ...source, mcp: { ...source.mcp, command } } : source,
    );
    return { ...platform.template, sources };
  }

  function runs(platform: FakePlatform): number {
    return platform.argsOf("runComparison").length;
  }

  it("asks before running, naming exactly what each source not allowed starts, with the focus on Cancel", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(true);
    expect(runs(platform)).toBe(0);
    expect(askedNames()).toEqual(["ide", "docs"]);
    expect(byTestId("run-source-starts", row("ide")).textContent).toBe("runs python3 ide_server.py in /t/. with TOKEN");
    expect(byTestId("run-source-starts", row("docs")).textContent).toBe("connects to https://docs.example.com/mcp");
    expect(byTestId("run-source-remote", row("docs")).textContent).toBe("Another machine");
    expect(row("ide").querySelector('[data-testid="run-source-remote"]')).toBeNull();
    expect(container.querySelector('[data-testid="run-source-changed"]')).toBeNull();
    expect(byTestId("run-sources-dialog").getAttribute("aria-modal")).toBe("true");
    expect(document.activeElement).toBe(byTestId("run-sources-cancel"));
    expect(
      ["run-sources-allow", "run-sources-snapshots", "run-sources-cancel"].map((id) => byTestId(id).textContent),
    ).toEqual(["Allow and run", "Run with snapshots", "Cancel"]);
  });

  it("Allow and run allows each source asked about, then runs; the next run asks nothing", async () => {
    let told = 0;
    const { platform } = await openWithSources(() => {
      told += 1;
    });
    await click(byTestId("run-comparison"));
    await click(byTestId("run-sources-allow"));
    expect(dialogShown()).toBe(false);
    const names = platform.callNames().filter((name) => name === "allowSource" || name === "runComparison");
    expect(names).toEqual(["allowSource", "allowSource", "runComparison"]);
    expect(platform.argsOf("allowSource").map(([, name]) => name)).toEqual(["ide", "docs"]);
    expect(told).toBe(1);
    expect(byTestId("run-status").textContent).toMatch(/^Finished/);
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(2);
  });

  it("Run with snapshots runs without allowing, and is not asked again for the same definitions", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    await click(byTestId("run-sources-snapshots"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(1);
    expect(platform.argsOf("allowSource")).toEqual([]);
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(2);
    expect(platform.argsOf("allowSource")).toEqual([]);
  });

  it("asks again about a definition changed since it was run with its snapshot, or since it was allowed", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    await click(byTestId("run-sources-snapshots"));
    platform.template = withIdeCommand(platform, ["python3", "other_server.py"]);
    await click(byTestId("run-comparison"));
    expect(askedNames()).toEqual(["ide"]);
    expect(byTestId("run-source-starts", row("ide")).textContent).toContain("python3 other_server.py");
    await click(byTestId("run-sources-allow"));
    expect(runs(platform)).toBe(2);
    platform.template = withIdeCommand(platform, ["python3", "third_server.py"]);
    await click(byTestId("run-comparison"));
    expect(askedNames()).toEqual(["ide"]);
    expect(row("ide").dataset.permission).toBe("changed");
    expect(byTestId("run-source-changed", row("ide")).textContent).toBe("Changed since allowed");
    expect(runs(platform)).toBe(2);
  });

  it("allows only what the question showed: a definition changed meanwhile is asked about again", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    platform.template = withIdeCommand(platform, ["python3", "other_server.py"]);
    await click(byTestId("run-sources-allow"));
    expect(platform.argsOf("allowSource")).toEqual([]);
    expect(runs(platform)).toBe(0);
    expect(byTestId("run-source-starts", row("ide")).textContent).toContain("python3 other_server.py");
  });

  it("Cancel and Escape run nothing, and the next Run asks again", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    await click(byTestId("run-sources-cancel"));
    expect(dialogShown()).toBe(false);
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(true);
    await pressEscape(byTestId("run-sources-cancel"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(0);
    expect(platform.argsOf("allowSource")).toEqual([]);
  });

  it("shows a refused allow in the question and runs nothing", async () => {
    const { platform } = await openWithSources();
    await click(byTestId("run-comparison"));
    platform.failures.set("allowSource", {
      code: "invalid_request",
      message: "the answers could not be written",
      problems: [],
    });
    await click(byTestId("run-sources-allow"));
    expect(dialogShown()).toBe(true);
    expect(byTestId("run-sources-failure").textContent).toBe(
      "Source 'ide' was not allowed the answers could not be written",
    );
    expect(runs(platform)).toBe(0);
  });

  it("runs at once a template without sources, without reading them", async () => {
    const { platform } = await openScenario();
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(1);
    expect(platform.argsOf("templateSources")).toEqual([]);
  });

  it("runs at once when every source is allowed", async () => {
    const { platform } = await openWithSources();
    for (const name of ["ide", "docs", "codap"]) await platform.allowSource(platform.id, name);
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(1);
  });

  it("runs an unsaved template with its snapshots without asking", async () => {
    const { platform } = await openWithSources();
    platform.currentPath = null;
    await click(byTestId("run-comparison"));
    expect(dialogShown()).toBe(false);
    expect(runs(platform)).toBe(1);
    expect(platform.argsOf("allowSource")).toEqual([]);
  });
});

describe("CompareView relay session", () => {
  function picker(): HTMLSelectElement | null {
    return container.querySelector<HTMLSelectElement>('[data-testid="relay-session-picker"]');
  }

  it("offers no relay session for a template without a relay source", async () => {
    const { platform, store } = setup();
    platform.relayListening = "http://127.0.0.1:7391";
    platform.relaySessions = [relaySession("K7Q2MX", "codap", ["plot"])];
    await render(store, platform);
    expect(picker()).toBeNull();
    expect(platform.callNames()).not.toContain("relayStatus");
  });

  it("offers none while the relay is stopped or has no session", async () => {
    const stopped = setup(templateWithSources());
    await render(stopped.store, stopped.platform);
    expect(stopped.platform.callNames()).toContain("relayStatus");
    expect(picker()).toBeNull();
    const empty = setup(templateWithSources());
    empty.platform.relayListening = "http://127.0.0.1:7391";
    await render(empty.store, empty.platform);
    expect(picker()).toBeNull();
  });

  it("reads the sessions again when the window gets the focus back (a plugin was started elsewhere)", async () => {
    const { platform, store } = setup(templateWithSources());
    platform.relayListening = "http://127.0.0.1:7391";
    await render(store, platform);
    expect(picker()).toBeNull();
    platform.relaySessions = [relaySession("K7Q2MX", "codap", ["plot"])];
    await act(async () => {
      window.dispatchEvent(new FocusEvent("focus"));
      await Promise.resolve();
    });
    expect([...(picker()?.options ?? [])].map((option) => option.value)).toEqual(["", "K7Q2MX"]);
  });

  it("offers the relay's sessions, and sends the one chosen with the comparison (none by default)", async () => {
    const { platform } = await openScenario(templateWithSources(), undefined, (fake) => {
      fake.relayListening = "http://127.0.0.1:7391";
      fake.relaySessions = [relaySession("K7Q2MX", "codap", ["plot"]), relaySession("ZZ4ABC", null)];
    });
    const select = picker();
    expect([...(select?.options ?? [])].map((option) => option.textContent)).toEqual([
      "No relay session",
      "K7Q2MX · codap",
      "ZZ4ABC · no plugin yet",
    ]);
    expect(select?.value).toBe("");
    await click(byTestId("run-comparison"));
    await click(byTestId("run-sources-allow"));
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ relaySession: null });
    choose(byTestId("relay-session-picker"), "K7Q2MX");
    await settle();
    await click(byTestId("run-comparison"));
    expect(platform.argsOf("runComparison")).toHaveLength(2);
    expect(platform.argsOf("runComparison").at(-1)?.[3]).toMatchObject({ relaySession: "K7Q2MX" });
  });
});
