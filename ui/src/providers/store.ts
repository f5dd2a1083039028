// The provider profiles live runs use, without React: read (with whether each key is set now), and
// edited in their dialog, saved whole; a refused save keeps the dialog open with every problem at
// its place. A failure to read them is said on the page's outcome. React reads it through
// `subscribe`/`getState`.
import type { Platform, ProfilesView, ProviderProfile } from "../platform";
import { ExternalStore } from "../shared/ExternalStore";
import { failureOf, type Failure } from "../shared/failure";
import type { OutcomeStore } from "../shared/outcome";

export interface ProvidersState {
  /** The provider profiles as last read or saved (null until read). */
  profiles: ProfilesView | null;
  /** The providers dialog is open. */
  providersOpen: boolean;
  /** Why the last save of the profiles was refused, each problem at its place (the dialog shows it). */
  profilesFailure: Failure | null;
}

export class ProviderStore extends ExternalStore<ProvidersState> {
  /** `outcome`: where a failure to read the profiles is said (the Compare page's). */
  constructor(
    private readonly platform: Platform,
    private readonly outcome: OutcomeStore,
  ) {
    super({ profiles: null, providersOpen: false, profilesFailure: null });
  }

  /** Reads the provider profiles and whether their keys are set. */
  async loadProfiles(): Promise<void> {
    const read = await this.platform.providerProfiles();
    if (read.ok) this.update({ profiles: read.value });
    else this.outcome.fail(failureOf("The provider profiles were not read", read.error));
  }

  /** Opens the providers dialog on the profiles as the file holds them now. */
  async openProviders(): Promise<void> {
    this.update({ profilesFailure: null });
    await this.loadProfiles();
    this.update({ providersOpen: true });
  }

  /** Closes the providers dialog; what it held unsaved is let go. */
  closeProviders(): void {
    this.update({ providersOpen: false, profilesFailure: null });
  }

  /**
   * Replaces the provider profiles with `list` and closes the dialog; a refusal keeps it open with
   * every problem at its place. True once saved.
   */
  async saveProfiles(list: ProviderProfile[]): Promise<boolean> {
    const saved = await this.platform.saveProviderProfiles(list);
    if (!saved.ok) {
      this.update({ profilesFailure: failureOf("The provider profiles were not saved", saved.error) });
      return false;
    }
    this.update({ profiles: saved.value, profilesFailure: null, providersOpen: false });
    return true;
  }
}
