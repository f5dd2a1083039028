// The relay store's reads against its start and stop, in the order the backend answers them.
import { describe, expect, it } from "vitest";
import type { Outcome, Platform, RelayStatus } from "../platform";
import { connectSnippet, RelayStore } from "./relay";

const RUNNING: RelayStatus = { listening: "http://127.0.0.1:7391", sessions: [] };
const STOPPED: RelayStatus = { listening: null, sessions: [] };

/** A platform whose status reads answer only when the test says, with what they saw then. */
function platform() {
  const pending: ((status: Outcome<RelayStatus>) => void)[] = [];
  const stub = {
    relayStatus: () => new Promise<Outcome<RelayStatus>>((resolve) => pending.push(resolve)),
    startRelay: () => Promise.resolve({ ok: true, value: RUNNING } as Outcome<RelayStatus>),
    stopRelay: () => Promise.resolve({ ok: true, value: STOPPED } as Outcome<RelayStatus>),
    watchRelay: () => Promise.resolve({ ok: true, value: null }),
  };
  return {
    platform: stub as unknown as Platform,
    answerRead: (status: RelayStatus) => pending.shift()?.({ ok: true, value: status }),
  };
}

describe("RelayStore", () => {
  it("keeps a start when a read sent meanwhile answers late with the relay as it was before", async () => {
    const { platform: stub, answerRead } = platform();
    const store = new RelayStore(stub);
    const started = store.start();
    const opened = store.open();
    await started;
    expect(store.getState().listening).toBe(RUNNING.listening);
    answerRead(STOPPED);
    await opened;
    expect(store.getState().listening).toBe(RUNNING.listening);
  });

  it("takes a read sent after the start answered", async () => {
    const { platform: stub, answerRead } = platform();
    const store = new RelayStore(stub);
    await store.start();
    const opened = store.open();
    answerRead(STOPPED);
    await opened;
    expect(store.getState().listening).toBeNull();
  });
});

describe("connectSnippet", () => {
  it("opens a session and registers a tool at the relay's address (run for real by the e2e test)", () => {
    const snippet = connectSnippet("http://127.0.0.1:7391/");
    expect(snippet).toContain(
      "curl -s -X POST http://127.0.0.1:7391/api/sessions -H 'Content-Type: application/json' -d '{}'",
    );
    expect(snippet).toContain(
      "http://127.0.0.1:7391/api/sessions/CODE/register-tools -H 'Authorization: Bearer TOKEN'",
    );
    expect(snippet).toContain('"pluginType":"my-plugin"');
  });
});
