// The providers dialog's fields as text: a profile round-trips through its draft, empty fields are
// left out so the defaults apply (a key kept in the keychain stays so), numbers that are not numbers
// are problems at their pointers, a new profile's defaults and free name, problems placed at their
// fields or apart, and a key's status as the profiles last read tell it.
import { describe, expect, it } from "vitest";
import type { ProviderProfile } from "../platform";
import { draftOf, keySetNow, LOCAL_BASE_URL, newDraft, placeProblems, profilesOf } from "./profileDrafts";

const FULL: ProviderProfile = {
  name: "remote",
  kind: "anthropic",
  base_url: "https://api.anthropic.com/v1",
  model: "claude-sonnet-4-5",
  temperature: 0.7,
  max_tokens: 2048,
  stream: false,
  connect_timeout_ms: 5000,
  read_timeout_ms: 90000,
  api_key_env: "ANTHROPIC_API_KEY",
};

const LOCAL: ProviderProfile = {
  name: "local",
  kind: "openai",
  base_url: LOCAL_BASE_URL,
  model: "qwen3",
  stream: true,
};

describe("profile drafts", () => {
  it("make the profile they were drawn from", () => {
    expect(profilesOf([draftOf(FULL), draftOf(LOCAL)])).toEqual({ ok: true, profiles: [FULL, LOCAL] });
  });

  it("leave empty fields out, and read a profile's absent or null fields as empty", () => {
    const draft = draftOf({ ...LOCAL, temperature: null, stream: undefined });
    expect(draft).toMatchObject({ temperature: "", max_tokens: "", api_key_env: "", stream: true });
    expect(profilesOf([{ ...draft, api_key_env: "  " }])).toEqual({ ok: true, profiles: [LOCAL] });
  });

  it("refuse numbers that are not numbers, each at its pointer", () => {
    const drafts = [
      draftOf(LOCAL),
      { ...draftOf(LOCAL), temperature: "hot", max_tokens: "-1", read_timeout_ms: "2e3" },
    ];
    expect(profilesOf(drafts)).toEqual({
      ok: false,
      problems: [
        { location: "/profiles/1/temperature", message: "must be a number, or empty for the API's default" },
        { location: "/profiles/1/max_tokens", message: "must be a whole number, or empty for the default" },
        { location: "/profiles/1/read_timeout_ms", message: "must be a whole number, or empty for the default" },
      ],
    });
  });

  it("start a new profile on a local OpenAI-compatible server under a free name", () => {
    const first = newDraft([]);
    expect(first).toMatchObject({
      name: "local",
      kind: "openai",
      base_url: LOCAL_BASE_URL,
      stream: true,
      api_key_env: "",
    });
    expect(newDraft([first, { ...first, name: "local-2" }]).name).toBe("local-3");
  });

  it("place problems at their fields, and list those that name no field", () => {
    const drafts = [draftOf(LOCAL), draftOf(FULL)];
    const placed = placeProblems(
      [
        { location: "/profiles/1/base_url", message: "must start with http:// or https://" },
        { location: "/profiles/1/base_url", message: "another" },
        { location: "/profiles/0/kind", message: "unknown variant" },
        { location: "/profiles/5/name", message: "gone" },
        { location: "", message: "cannot write" },
      ],
      drafts,
    );
    expect([...placed.atField]).toEqual([["/profiles/1/base_url", ["must start with http:// or https://", "another"]]]);
    expect(placed.elsewhere.map((problem) => problem.message)).toEqual(["unknown variant", "gone", "cannot write"]);
  });

  it("tell a key's status as the profiles read say it, or that it is not known", () => {
    const kept: ProviderProfile = { ...LOCAL, name: "kept", api_key_keychain: true };
    const saved = { profiles: [LOCAL, FULL, kept], keys_set: [true, false, true] };
    const draft = (name: string, variable: string, keychain = false) => ({
      name,
      api_key_env: variable,
      api_key_keychain: keychain,
    });
    expect(keySetNow(draft("renamed", "ANTHROPIC_API_KEY"), saved)).toBe(false);
    expect(keySetNow(draft("remote", "OTHER"), saved)).toBeNull();
    expect(keySetNow(draft("remote", "ANTHROPIC_API_KEY"), null)).toBeNull();
    expect(keySetNow(draft("kept", "", true), saved)).toBe(true);
    expect(keySetNow(draft("remote", "", true), saved)).toBeNull();
  });

  it("carry a key kept in the keychain through", () => {
    const kept: ProviderProfile = { ...LOCAL, api_key_keychain: true };
    expect(draftOf(kept).api_key_keychain).toBe(true);
    expect(profilesOf([draftOf(kept)])).toEqual({ ok: true, profiles: [kept] });
    expect(profilesOf([draftOf(LOCAL)])).toEqual({ ok: true, profiles: [LOCAL] });
  });

  it("write dynamic_tools only for a harness that takes its tools once", () => {
    const fixed: ProviderProfile = { ...LOCAL, dynamic_tools: false };
    expect(draftOf(fixed).dynamic_tools).toBe(false);
    expect(draftOf(LOCAL).dynamic_tools).toBe(true);
    expect(profilesOf([draftOf(fixed)])).toEqual({ ok: true, profiles: [fixed] });
    expect(profilesOf([draftOf(LOCAL)]).ok && "dynamic_tools" in profilesOf([draftOf(LOCAL)])).toBe(false);
  });
});
