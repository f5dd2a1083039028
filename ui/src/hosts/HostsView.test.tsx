// Renders HostsView in happy-dom over the FakePlatform's host lab (testing/fakeProbe.ts): the hosts
// installed (chosen, with versions) and not; Probe asking first about the hosts not allowed (Cancel
// starts nothing), then probing with the last run shown; the matrix (the distribution in words and
// as a bar, the runs that re-listed, the run's time and Unfold's share) and each run opening on the
// History page; a cancel; the runs per host kept in bounds; and the words of the matrix.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it, vi } from "vitest";
import { all, byTestId, click, none, settle } from "../testing/dom";
import { FakePlatform } from "../testing/fakePlatform";
import { probedHost } from "../testing/fakeProbe";
import { mountEachTest } from "../testing/testRoot";
import { HostsView } from "./HostsView";
import { distributionText, HostsStore, MAX_RUNS, momentText, shareText } from "./store";

let root: Root;

mountEachTest((mounted) => {
  ({ root } = mounted);
});

async function render(platform = new FakePlatform()) {
  const store = new HostsStore(platform);
  const onOpenRun = vi.fn<(id: number) => void>();
  act(() => {
    root.render(<HostsView store={store} onOpenRun={onOpenRun} />);
  });
  await settle();
  return { platform, store, onOpenRun };
}

function host(name: string): HTMLElement {
  return byTestId(`probe-host"][data-name="${name}`);
}

describe("the Hosts page", () => {
  it("offers the installed hosts with their versions, chosen, and names the missing ones", async () => {
    await render();
    expect(all("probe-host").map((item) => [item.dataset.name, item.dataset.installed, item.textContent])).toEqual([
      ["openai-agents", "true", " openai-agents 0.24.0"],
      ["openai-agents-cached", "true", " openai-agents-cached 0.24.0"],
      ["pydantic-ai", "false", "pydantic-ai: not installed"],
    ]);
    expect((host("openai-agents").querySelector("input") as HTMLInputElement).checked).toBe(true);
    expect(byTestId("probe-start").title).toBe("Probe openai-agents, openai-agents-cached, 5 runs each");
  });

  it("asks before starting a host not allowed, starts nothing on Cancel, and probes once allowed", async () => {
    const { platform, onOpenRun } = await render();
    platform.probe.measurements.set("openai-agents", { next_call: 3, late_1: 2 });
    await click(host("openai-agents-cached").querySelector("input") as HTMLElement);
    await click(byTestId("probe-start"));
    expect(byTestId("run-host-starts").textContent).toBe("program: /h/openai-agents/bin/python\nenv: HOME={run}/home");
    await click(byTestId("run-hosts-cancel"));
    expect(none("run-hosts-dialog")).toBe(true);
    expect(platform.argsOf("probeHosts")).toEqual([]);

    await click(byTestId("probe-start"));
    await click(byTestId("run-hosts-allow"));
    await settle();
    expect(platform.argsOf("allowRealHost")).toEqual([["openai-agents"]]);
    expect(platform.argsOf("probeHosts")).toEqual([[["openai-agents"], 5]]);
    const row = byTestId('probe-row"][data-host="openai-agents');
    expect(byTestId("probe-visible", row).textContent).toBe("next call 3 · 1 call late 2");
    expect(all("probe-segment", row).map((segment) => [segment.dataset.moment, segment.style.flexGrow])).toEqual([
      ["next_call", "0.6"],
      ["late_1", "0.4"],
    ]);
    expect([...row.querySelectorAll("td")].map((cell) => cell.textContent).slice(1, 5)).toEqual([
      "5/5",
      "5/5",
      "end 5",
      "4.2 s · 21 ms (0.5 %)",
    ]);
    // Each run opens on the History page's timeline.
    const runs = all("probe-run", row);
    expect(runs.map((run) => run.textContent)).toEqual(["1", "2", "3", "4", "5"]);
    await click(runs[1] as HTMLElement);
    expect(onOpenRun).toHaveBeenCalledWith(502);
  });

  it("shows the last run that ended while probing, and Cancel stops it with nothing measured", async () => {
    const { platform } = await render();
    platform.compare.allowedHosts.add("openai-agents").add("openai-agents-cached");
    platform.probe.hold = true;
    await click(byTestId("probe-start"));
    expect(byTestId("probe-progress").textContent).toBe("openai-agents: run 1 of 5 completed");
    expect((byTestId("probe-start") as HTMLButtonElement).disabled).toBe(true);
    await click(byTestId("probe-cancel"));
    await settle();
    expect(none("probe-progress")).toBe(true);
    expect(none("probe-matrix")).toBe(true);
    expect(none("probe-failure")).toBe(true);
    expect(platform.argsOf("cancelProbe")).toEqual([[]]);
  });

  it("keeps the runs per host between 1 and the most the page asks for", async () => {
    const { store } = await render();
    store.setRuns(0);
    expect(store.getState().runs).toBe(1);
    store.setRuns(500);
    expect(store.getState().runs).toBe(MAX_RUNS);
    store.setRuns(Number.NaN);
    expect(store.getState().runs).toBe(MAX_RUNS);
  });

  it("a host left out is not probed, and none chosen leaves Probe disabled, saying why", async () => {
    await render();
    await click(host("openai-agents").querySelector("input") as HTMLElement);
    await click(host("openai-agents-cached").querySelector("input") as HTMLElement);
    expect((byTestId("probe-start") as HTMLButtonElement).disabled).toBe(true);
    expect(byTestId("probe-start").title).toBe("Choose a host to probe");
  });
});

describe("the matrix's words", () => {
  it("names each moment, the distribution earliest first, and Unfold's share", () => {
    expect(["next_call", "late_1", "late_3", "next_turn", "never"].map(momentText)).toEqual([
      "next call",
      "1 call late",
      "3 calls late",
      "next turn",
      "never",
    ]);
    const probed = probedHost("codex", 10, { next_call: 4, late_2: 5, never: 1 });
    expect(distributionText(probed)).toBe("next call 4 · 2 calls late 5 · never 1");
    expect(shareText({ ...probed, median_wall_ms: 2000, median_servers_ms: 50 })).toBe("50 ms (2.5 %)");
    expect(shareText({ ...probed, median_wall_ms: 0, median_servers_ms: 3 })).toBe("3 ms");
  });
});
