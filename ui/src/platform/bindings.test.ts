// Tests that the platform keeps up with the generated bindings: the real backend and the tests' fake
// each have a method for every command bindings.ts lists, and the real one sends each to the backend
// command of its own name and answers an `Outcome` even when the call itself fails.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { commands } from "../bindings";
import { FakePlatform } from "../testing/fakePlatform";
import { tauriPlatform } from "./index";

const invoke = vi.hoisted(() => vi.fn());
vi.mock("@tauri-apps/api/core", () => ({
  invoke,
  isTauri: () => false,
  // A channel that never hears from a backend.
  Channel: class {
    onmessage: (message: unknown) => void = () => undefined;
  },
}));

const commandNames = Object.keys(commands);

/** The generated commands `platform` has no method for. */
function missingCommands(platform: object): string[] {
  return commandNames.filter((name) => typeof Reflect.get(platform, name) !== "function");
}

/** The backend's name for a command (the bindings camelCase the Rust function's name). */
function backendName(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

beforeEach(() => {
  vi.resetAllMocks();
});

describe("platform and bindings", () => {
  it("gives the real backend a method for every command, and besides them only the app's hooks", () => {
    expect(missingCommands(tauriPlatform)).toEqual([]);
    expect(
      Object.keys(tauriPlatform)
        .filter((name) => !commandNames.includes(name))
        .sort(),
    ).toEqual(["isTauri", "onCloseRequested", "onFilesDropped"]);
  });

  it("lists no command the fake backend is missing", () => {
    expect(missingCommands(new FakePlatform())).toEqual([]);
  });

  it("sends every command to the backend command of its name, answering ipc_failed when the call throws", async () => {
    invoke.mockRejectedValue(new Error("no backend"));
    // runComparison and runStudy read their settings to make the request; the other commands pass
    // on what they get.
    const settings = { adapters: [], hosts: [], realHosts: [], live: null, relaySession: null, priceAs: null };
    const study = { repeat: 2, aa: false, seed: 1, maxCostUsd: null, jobs: 1 };
    const argsOf = (name: string): unknown[] => {
      if (name === "runComparison") return [1, 1, 1, settings, () => undefined];
      if (name === "runStudy") return [1, 1, 1, settings, study, () => undefined];
      return [];
    };
    for (const name of commandNames) {
      const method = Reflect.get(tauriPlatform, name) as (...args: unknown[]) => Promise<unknown>;
      expect(await method(...argsOf(name)), name).toEqual({
        ok: false,
        error: { code: "ipc_failed", message: "no backend" },
      });
    }
    expect(invoke.mock.calls.map(([command]) => command as unknown)).toEqual(commandNames.map(backendName));
  });
});
