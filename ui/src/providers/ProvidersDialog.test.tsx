// Renders the providers dialog from the compare view's Providers… button over the FakePlatform: the
// file it saves to and the line about keys, each profile's fields (never a key's), whether a key
// variable or the keychain holds its key now, edit, add and remove, Save (the profiles the backend keeps, the model picker
// following) and Cancel, a refusal with each problem at its field or in the list, and a number
// field that is not a number, caught before anything is sent.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { ProviderProfile } from "../platform";
import { localProfile } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { all, choose, click, one, settle, typeInto, valueOf } from "../testing/dom";
import { ComparePageOf, openComparePage, type CompareStores } from "../testing/comparePage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const REMOTE: ProviderProfile = {
  name: "remote",
  kind: "anthropic",
  base_url: "https://api.anthropic.com/v1",
  model: "claude-sonnet-4-5",
  max_tokens: 2048,
  stream: false,
  api_key_env: "ANTHROPIC_API_KEY",
};

/** The compare view with the profiles `local` and `remote` kept, and the providers dialog open. */
async function openDialog(
  profiles: ProviderProfile[] = [localProfile(), REMOTE],
): Promise<{ platform: FakePlatform; store: CompareStores }> {
  const platform = new FakePlatform();
  platform.compare.profiles = profiles;
  const store = openComparePage(platform);
  act(() => {
    root.render(<ComparePageOf stores={store} platform={platform} />);
  });
  await settle();
  await click(one("providers-button"));
  return { platform, store };
}

function row(index: number): HTMLElement {
  const found = all("profile-row")[index];
  if (found === undefined) throw new Error(`no profile row ${String(index)}`);
  return found;
}

/** The problems shown at `field` of row `index`. */
function problemsAt(index: number, field: string): string[] {
  return [...row(index).querySelectorAll<HTMLElement>(`[data-testid="profile-problem"][data-field="${field}"]`)].map(
    (p) => p.textContent,
  );
}

describe("ProvidersDialog", () => {
  it("shows the file, the line about keys and each profile's fields, with no field for a key", async () => {
    await openDialog();
    const dialog = one("providers-dialog");
    expect(dialog.getAttribute("role")).toBe("dialog");
    expect(one("providers-path").textContent).toBe("/home/u/.config/unfold/providers.json");
    expect(dialog.textContent).toContain(
      "Keys come from environment variables (or the OS keychain, filled by unfold key set NAME) and never go into the file or this window",
    );
    expect(all("profile-row")).toHaveLength(2);
    expect(valueOf(one("profile-name", row(1)))).toBe("remote");
    expect(valueOf(one("profile-kind", row(1)))).toBe("anthropic");
    expect(valueOf(one("profile-base-url", row(1)))).toBe("https://api.anthropic.com/v1");
    expect(valueOf(one("profile-model", row(1)))).toBe("claude-sonnet-4-5");
    expect(valueOf(one("profile-max-tokens", row(1)))).toBe("2048");
    expect(valueOf(one("profile-temperature", row(1)))).toBe("");
    expect((one("profile-stream", row(1)) as HTMLInputElement).checked).toBe(false);
    expect(valueOf(one("profile-key-env", row(1)))).toBe("ANTHROPIC_API_KEY");
    expect(dialog.querySelector('input[type="password"]')).toBeNull();
    expect(dialog.textContent).not.toMatch(/api key:/i);
  });

  it("tells whether each key variable is set now", async () => {
    const { platform } = await openDialog();
    expect(one("profile-key-status", row(0)).textContent).toBe("No key is sent (Ollama, llama.cpp's server)");
    expect(one("profile-key-status", row(1)).textContent).toBe("ANTHROPIC_API_KEY is not set now: a run would fail");
    typeInto(one("profile-key-env", row(1)), "OTHER_KEY");
    expect(one("profile-key-status", row(1)).textContent).toBe("Whether it is set is checked once saved");
    await click(one("cancel-profiles"));
    platform.compare.environment.add("ANTHROPIC_API_KEY");
    await click(one("providers-button"));
    expect(one("profile-key-status", row(1)).textContent).toBe("ANTHROPIC_API_KEY is set now");
  });

  it("saves edited, added and removed profiles, closes, and the model picker follows", async () => {
    const { platform } = await openDialog();
    typeInto(one("profile-model", row(0)), "llama3.2");
    typeInto(one("profile-temperature", row(0)), "0.2");
    await click(one("remove-profile", row(1)));
    expect(all("profile-row")).toHaveLength(1);
    await click(one("add-profile"));
    expect(valueOf(one("profile-name", row(1)))).toBe("local-2");
    expect(valueOf(one("profile-kind", row(1)))).toBe("openai");
    expect(valueOf(one("profile-base-url", row(1)))).toBe("http://127.0.0.1:11434/v1");
    expect((one("profile-stream", row(1)) as HTMLInputElement).checked).toBe(true);
    typeInto(one("profile-name", row(1)), "cloud");
    choose(one("profile-kind", row(1)), "anthropic");
    typeInto(one("profile-base-url", row(1)), "https://api.anthropic.com/v1");
    typeInto(one("profile-model", row(1)), "claude-haiku-4-5");
    typeInto(one("profile-key-env", row(1)), "ANTHROPIC_API_KEY");
    const dynamicTools = one("profile-dynamic-tools", row(1)) as HTMLInputElement;
    expect(dynamicTools.checked).toBe(true);
    await click(dynamicTools);
    await click(one("save-profiles"));
    const saved: ProviderProfile[] = [
      { ...localProfile(), model: "llama3.2", temperature: 0.2 },
      {
        name: "cloud",
        kind: "anthropic",
        base_url: "https://api.anthropic.com/v1",
        model: "claude-haiku-4-5",
        stream: true,
        api_key_env: "ANTHROPIC_API_KEY",
        dynamic_tools: false,
      },
    ];
    expect(platform.argsOf("saveProviderProfiles")).toEqual([[saved]]);
    expect(platform.compare.profiles).toEqual(saved);
    expect(container.querySelector('[data-testid="providers-dialog"]')).toBeNull();
    const picker = one("comparison-model") as HTMLSelectElement;
    expect([...picker.options].map((option) => option.textContent)).toEqual([
      "Scripted (the scenario's script)",
      "local · llama3.2",
      "cloud · claude-haiku-4-5",
    ]);
  });

  it("offers each API a profile can speak, OpenAI's Responses among them", async () => {
    const { platform } = await openDialog();
    const kinds = one("profile-kind", row(0)) as HTMLSelectElement;
    expect([...kinds.options].map((option) => option.value)).toEqual(["openai", "openai-responses", "anthropic"]);
    choose(kinds, "openai-responses");
    await click(one("save-profiles"));
    const [[saved]] = platform.argsOf("saveProviderProfiles") as [[ProviderProfile[]]];
    expect(saved[0]?.kind).toBe("openai-responses");
  });

  it("shows each problem of a refused save at its field, and keeps the dialog and the edits", async () => {
    const { platform } = await openDialog();
    typeInto(one("profile-name", row(1)), "local");
    typeInto(one("profile-base-url", row(1)), "ftp://nowhere");
    typeInto(one("profile-model", row(0)), " ");
    await click(one("save-profiles"));
    expect(one("providers-failure").textContent).toContain("The provider profiles were not saved");
    expect(problemsAt(1, "base_url")).toEqual(["must start with http:// or https://"]);
    expect(problemsAt(1, "name")).toEqual(["a profile named 'local' comes earlier"]);
    expect(problemsAt(0, "model")).toEqual(["a profile needs a model"]);
    expect(problemsAt(0, "name")).toEqual([]);
    expect(container.querySelector('[data-testid="providers-problems"]')).toBeNull();
    expect(valueOf(one("profile-base-url", row(1)))).toBe("ftp://nowhere");
    expect(platform.compare.profiles.map((profile) => profile.name)).toEqual(["local", "remote"]);

    typeInto(one("profile-base-url", row(1)), "https://api.anthropic.com/v1");
    typeInto(one("profile-name", row(1)), "remote-2");
    typeInto(one("profile-model", row(0)), "qwen3");
    await click(one("save-profiles"));
    expect(container.querySelector('[data-testid="providers-dialog"]')).toBeNull();
    expect(platform.compare.profiles.map((profile) => profile.name)).toEqual(["local", "remote-2"]);
  });

  it("lists the problems that name no field", async () => {
    const { platform } = await openDialog();
    const problems = [{ location: "", message: "cannot create /home/u/.config/unfold: permission denied" }];
    platform.failures.set("saveProviderProfiles", {
      code: "provider",
      message: "the profiles were not written",
      problems,
    });
    await click(one("save-profiles"));
    expect(one("providers-problems").textContent).toContain("cannot create /home/u/.config/unfold: permission denied");
    expect(one("providers-failure").textContent).toContain("1 problem, at its place:");
  });

  it("catches a number field that is not a number before anything is sent", async () => {
    const { platform } = await openDialog();
    typeInto(one("profile-temperature", row(0)), "warm");
    typeInto(one("profile-read-timeout", row(1)), "1.5");
    await click(one("save-profiles"));
    expect(problemsAt(0, "temperature")).toEqual(["must be a number, or empty for the API's default"]);
    expect(problemsAt(1, "read_timeout_ms")).toEqual(["must be a whole number, or empty for the default"]);
    expect(platform.callNames()).not.toContain("saveProviderProfiles");
    expect(one("providers-dialog")).toBeDefined();
  });

  it("forgets the problems' places when a profile is removed", async () => {
    await openDialog();
    typeInto(one("profile-base-url", row(1)), "ftp://nowhere");
    await click(one("save-profiles"));
    expect(problemsAt(1, "base_url")).toHaveLength(1);
    await click(one("remove-profile", row(0)));
    expect(all("profile-problem")).toEqual([]);
  });

  it("lets the edits go on Cancel and on Escape", async () => {
    const { platform } = await openDialog();
    typeInto(one("profile-model", row(0)), "changed");
    await click(one("cancel-profiles"));
    expect(container.querySelector('[data-testid="providers-dialog"]')).toBeNull();
    await click(one("providers-button"));
    expect(valueOf(one("profile-model", row(0)))).toBe("qwen3");
    act(() => {
      one("providers-dialog").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    await settle();
    expect(container.querySelector('[data-testid="providers-dialog"]')).toBeNull();
    expect(platform.callNames()).not.toContain("saveProviderProfiles");
  });

  it("keeps a key kept in the keychain so on save, and says whether the keychain holds it", async () => {
    const vault: ProviderProfile = {
      ...localProfile("vault"),
      base_url: "https://api.openai.com/v1",
      api_key_keychain: true,
    };
    const { platform } = await openDialog([localProfile(), vault]);
    expect((one("profile-key-keychain", row(1)) as HTMLInputElement).checked).toBe(true);
    expect(one("profile-key-status", row(1)).textContent).toBe(
      "The keychain holds no key for vault: run unfold key set vault",
    );
    await click(one("save-profiles"));
    expect(platform.compare.profiles).toEqual([localProfile(), vault]);

    platform.compare.keychain.add("vault");
    await click(one("providers-button"));
    expect(one("profile-key-status", row(1)).textContent).toBe("The keychain holds its key");
    typeInto(one("profile-key-env", row(1)), "OPENAI_API_KEY");
    await click(one("save-profiles"));
    expect(problemsAt(1, "api_key_keychain")).toEqual([
      "takes its key either from the keychain or from an environment variable, not both",
    ]);
  });

  it("offers to add a first profile when there is none", async () => {
    await openDialog([]);
    expect(one("providers-dialog").textContent).toContain("No profiles yet");
    await click(one("add-profile"));
    expect(valueOf(one("profile-name", row(0)))).toBe("local");
  });
});
