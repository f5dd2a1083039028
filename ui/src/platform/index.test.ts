// Tests for the platform wrappers over mocked bindings: arguments pass through unchanged (a
// comparison's as one request, its progress through a channel), command errors keep their code, and
// framework failures or throws become `ipc_failed` instead of throwing.
import { beforeEach, describe, expect, it, vi } from "vitest";

const commands = vi.hoisted(() => ({
  applyEdit: vi.fn(),
  importTools: vi.fn(),
  previewDocument: vi.fn(),
  saveDocument: vi.fn(),
  runComparison: vi.fn(),
  runStudy: vi.fn(),
  watchRelay: vi.fn(),
}));
vi.mock("../bindings", () => ({ commands }));
vi.mock("@tauri-apps/api/core", () => ({
  isTauri: () => false,
  // A channel the test plays the backend's messages into.
  Channel: class {
    onmessage: (message: unknown) => void = () => undefined;
  },
}));

const { tauriPlatform } = await import("./index");
const { applyEdit, importTools, previewDocument, runComparison, runStudy, saveDocument, watchRelay } = tauriPlatform;

beforeEach(() => {
  vi.resetAllMocks();
});

describe("platform", () => {
  it("passes arguments through and returns the value", async () => {
    commands.applyEdit.mockResolvedValue({ status: "ok", data: { id: 3 } });
    const edit = { op: "rename_section", path: "task", key: "job" } as const;
    expect(await applyEdit(3, edit, "g")).toEqual({ ok: true, value: { id: 3 } });
    expect(commands.applyEdit).toHaveBeenCalledWith(3, edit, "g");
  });

  it("keeps a command's error with its code", async () => {
    const error = { code: "invalid_edit", message: "no", problems: [] };
    commands.saveDocument.mockResolvedValue({ status: "error", error });
    expect(await saveDocument(1, null)).toEqual({ ok: false, error });
    expect(commands.saveDocument).toHaveBeenCalledWith(1, null);
  });

  it("turns a bare string rejection (ACL denial) and a throw into ipc_failed", async () => {
    commands.previewDocument.mockResolvedValueOnce({ status: "error", error: "preview_document not allowed" });
    expect(await previewDocument(1, [], true, null)).toEqual({
      ok: false,
      error: { code: "ipc_failed", message: "preview_document not allowed" },
    });
    commands.previewDocument.mockRejectedValueOnce(new Error("IPC down"));
    expect(await previewDocument(1, ["a"], false, 3)).toEqual({
      ok: false,
      error: { code: "ipc_failed", message: "IPC down" },
    });
  });

  it("reads pasted tools and keeps their problems' places", async () => {
    const imported = { format: "Anthropic", tools: [], conflicts: [] };
    commands.importTools.mockResolvedValueOnce({ status: "ok", data: imported });
    expect(await importTools(2, "[]")).toEqual({ ok: true, value: imported });
    expect(commands.importTools).toHaveBeenCalledWith(2, "[]");
    const error = {
      code: "invalid_tools",
      message: "/0: not a tool",
      problems: [{ location: "/0", message: "not a tool" }],
    };
    commands.importTools.mockResolvedValueOnce({ status: "error", error });
    expect(await importTools(2, "[1]")).toEqual({ ok: false, error });
  });

  it("sends a study as its comparison (kept for no later question) with how it repeats, and passes its progress on", async () => {
    const progress = {
      repetition: 1,
      done: 1,
      planned: 3,
      spent_usd: 0.002,
      kept: [{ lane: "dynamic", history_id: 4 }],
    };
    commands.runStudy.mockImplementation((_asked: unknown, channel: { onmessage: (message: unknown) => void }) => {
      channel.onmessage(progress);
      return Promise.resolve({ status: "ok", data: { kind: "unfold.study" } });
    });
    const heard: unknown[] = [];
    const settings = {
      adapters: ["dynamic" as const],
      hosts: [],
      realHosts: [],
      live: { profile: "local" },
      relaySession: null,
      priceAs: null,
    };
    const answer = await runStudy(2, 5, 7, settings, { repeat: 3, aa: true, seed: 1, maxCostUsd: 0.5, jobs: 2 }, (p) =>
      heard.push(p),
    );
    expect(answer).toEqual({ ok: true, value: { kind: "unfold.study" } });
    expect(commands.runStudy).toHaveBeenCalledWith(
      {
        study_id: 7,
        comparison: {
          template: { open: 2 },
          scenario: { open: 5 },
          lanes: ["dynamic"],
          model: { live: { profile: "local" } },
          sources: "allowed",
          relay_session: null,
          outputs: { requests: null, trace: null, history: true },
          run_id: null,
        },
        repeat: 3,
        aa: true,
        seed: 1,
        max_cost_usd: 0.5,
        jobs: 2,
      },
      expect.anything(),
    );
    expect(heard).toEqual([progress]);
  });

  it("sends a comparison as one request with its adapters, live run, relay session and price, and passes its progress on", async () => {
    const report = { runs: [], baseline: null, divergences: [] };
    commands.runComparison.mockImplementation(
      (_request: unknown, channel: { onmessage: (message: unknown) => void }) => {
        channel.onmessage({ type: "run_started", lane: "restart" });
        return Promise.resolve({ status: "ok", data: report });
      },
    );
    const heard: unknown[] = [];
    const live = { profile: "local" };
    const answer = await runComparison(
      2,
      5,
      9,
      // A live model's real hosts talk to it.
      {
        adapters: ["restart"],
        hosts: ["codex"],
        realHosts: ["openai-agents"],
        live,
        relaySession: "K7Q2MX",
        priceAs: null,
      },
      (progress) => heard.push(progress),
    );
    expect(answer).toEqual({ ok: true, value: report });
    expect(commands.runComparison).toHaveBeenCalledWith(
      {
        template: { open: 2 },
        scenario: { open: 5 },
        lanes: ["restart", "host:codex", "real:openai-agents"],
        model: { live: { profile: "local" } },
        sources: "allowed",
        relay_session: { code: "K7Q2MX", relay: null },
        outputs: { requests: null, trace: null, history: true },
        run_id: 9,
      },
      expect.anything(),
    );
    expect(heard).toEqual([{ type: "run_started", lane: "restart" }]);
    await runComparison(
      2,
      5,
      10,
      {
        adapters: ["dynamic", "restart", "allowed_tools", "deferred"],
        hosts: [],
        realHosts: ["openai-agents"],
        live: null,
        relaySession: null,
        priceAs: "gpt-4o-mini",
      },
      () => undefined,
    );
    expect(commands.runComparison).toHaveBeenLastCalledWith(
      {
        template: { open: 2 },
        scenario: { open: 5 },
        lanes: ["dynamic", "restart", "allowed_tools", "deferred", "real:openai-agents"],
        model: { scripted: { price_as: "gpt-4o-mini" } },
        sources: "allowed",
        relay_session: null,
        outputs: { requests: null, trace: null, history: true },
        run_id: 10,
      },
      expect.anything(),
    );
  });

  it("watches the relay through a channel, passing each log entry on", async () => {
    const entry = { code: "K7Q2MX", event: "tool-request", data: { id: "1", tool: "plot", args: {} } };
    commands.watchRelay.mockImplementation((channel: { onmessage: (message: unknown) => void }) => {
      channel.onmessage(entry);
      return Promise.resolve({ status: "ok", data: null });
    });
    const heard: unknown[] = [];
    expect(await watchRelay((logged) => heard.push(logged))).toEqual({ ok: true, value: null });
    expect(heard).toEqual([entry]);
  });
});
