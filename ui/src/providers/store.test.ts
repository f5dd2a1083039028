// ProviderStore over the FakePlatform: the provider profiles read and saved, the dialog opened on the
// profiles as the file holds them now, a refused save keeping it open with every problem, and a
// failure to read them said on the page's outcome.
import { describe, expect, it } from "vitest";
import type { PlatformError } from "../platform";
import { OutcomeStore } from "../shared/outcome";
import { localProfile } from "../testing/fakeCompare";
import { FakePlatform } from "../testing/fakePlatform";
import { ProviderStore } from "./store";

function setup() {
  const platform = new FakePlatform();
  const outcome = new OutcomeStore();
  return { platform, providers: new ProviderStore(platform, outcome), outcome };
}

describe("ProviderStore", () => {
  it("opens the dialog on the profiles as the file holds them now", async () => {
    const { platform, providers } = setup();
    platform.compare.profiles = [localProfile()];
    await providers.openProviders();
    expect(providers.getState()).toMatchObject({
      providersOpen: true,
      profiles: { path: "/home/u/.config/unfold/providers.json", profiles: [localProfile()], keys_set: [true] },
    });
    providers.closeProviders();
    expect(providers.getState().providersOpen).toBe(false);
  });

  it("says why the profiles were not read", async () => {
    const { platform, providers, outcome } = setup();
    const message = "/p/providers.json: /profiles/0/api_key: a profile file never holds a key";
    const error: PlatformError = { code: "provider", message, problems: [] };
    platform.failures.set("providerProfiles", error);
    await providers.loadProfiles();
    expect(outcome.getState().failure).toEqual({
      title: "The provider profiles were not read",
      detail: error.message,
      problems: [],
    });
    expect(providers.getState().profiles).toBeNull();
  });

  it("saves the profiles and closes the dialog; a refusal keeps it open with every problem", async () => {
    const { platform, providers } = setup();
    await providers.openProviders();
    expect(await providers.saveProfiles([localProfile()])).toBe(true);
    expect(platform.compare.profiles).toEqual([localProfile()]);
    expect(providers.getState()).toMatchObject({
      providersOpen: false,
      profiles: { profiles: [localProfile()] },
      profilesFailure: null,
    });

    await providers.openProviders();
    expect(await providers.saveProfiles([localProfile(), { ...localProfile(), base_url: "ftp://nowhere" }])).toBe(
      false,
    );
    expect(providers.getState().providersOpen).toBe(true);
    expect(providers.getState().profilesFailure).toEqual({
      title: "The provider profiles were not saved",
      detail: "2 problems, each at its place:",
      problems: [
        { location: "/profiles/1/base_url", message: "must start with http:// or https://" },
        { location: "/profiles/1/name", message: "a profile named 'local' comes earlier" },
      ],
    });
    expect(platform.compare.profiles).toEqual([localProfile()]);
  });
});
