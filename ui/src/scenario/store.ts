// The open scenario's state and actions, without React: new, open (by dialog, a recent file, the
// launch scenario, recovered work), edit, undo, redo, save and save as, its problems checked against
// the open template, and its unsaved changes settled before another one replaces it; the recent
// scenarios. Actions run one after the other; what was not done is said on the page's outcome. React
// reads it through `subscribe`/`getState`.
import type { Outcome, Platform, RecentFile, Scenario, ScenarioView } from "../platform";
import { ExternalStore, TaskQueue } from "../shared/ExternalStore";
import { failureOf } from "../shared/failure";
import type { OutcomeStore } from "../shared/outcome";
import { fileName } from "../shared/view";

/** What the unsaved-changes question answered (the workspace asks it). */
export type UnsavedAnswer = "save" | "discard" | "cancel";

/**
 * Asks whether to save the unsaved changes of the file called `name` before it is replaced by
 * another (`switch`) or the window closes (`close`).
 */
export type AskUnsaved = (name: string, reason: "switch" | "close") => Promise<UnsavedAnswer>;

export interface ScenarioState {
  scenario: ScenarioView | null;
  /** Bumped when the scenario changed other than by the field typed in (open, undo, redo). */
  revision: number;
  recent: RecentFile[];
}

export class ScenarioStore extends ExternalStore<ScenarioState> {
  /** Scenario actions run one after the other, each on the scenario the one before left. */
  private readonly queue = new TaskQueue();

  /**
   * `templateId`: the open template's document, which the scenario is checked against; `outcome`:
   * where a failure is said (the Compare page's); `replaced`: another scenario took the open one's
   * place (a comparison of the old one is let go).
   */
  constructor(
    private readonly platform: Platform,
    private readonly templateId: () => number | null,
    private readonly askUnsaved: AskUnsaved,
    private readonly outcome: OutcomeStore,
    private readonly replaced: () => void = () => undefined,
  ) {
    super({ scenario: null, revision: 0, recent: [] });
  }

  /** Takes a scenario view the backend answered with; false (and says why) for a failure. */
  private accept(result: Outcome<ScenarioView>, title: string, bump: boolean): boolean {
    if (!result.ok) {
      this.outcome.fail(failureOf(title, result.error));
      return false;
    }
    this.update({ scenario: result.value, revision: this.state.revision + (bump ? 1 : 0) });
    this.outcome.succeed();
    return true;
  }

  /** Reads the recent scenarios. */
  async loadRecent(): Promise<void> {
    const recent = await this.platform.recentScenarios();
    if (recent.ok) this.update({ recent: recent.value });
  }

  /** Starts a new scenario for the open template, once the open one's unsaved changes are settled. */
  newScenario(): Promise<boolean> {
    const template = this.templateId();
    if (template === null) return Promise.resolve(false);
    return this.replaceWith(() => this.platform.newScenario(template));
  }

  /** Asks which scenario file to open (the native dialog), then opens it. */
  async openChosen(): Promise<boolean> {
    const chosen = await this.platform.chooseFile("open_scenario", this.state.scenario?.path ?? null);
    if (!chosen.ok) {
      this.outcome.fail(failureOf("The scenario was not opened", chosen.error));
      return false;
    }
    return chosen.value === null ? false : this.openPath(chosen.value);
  }

  /** Opens the scenario file at `path` (a recent file, the launch scenario). */
  openPath(path: string): Promise<boolean> {
    if (this.state.scenario?.path === path) return Promise.resolve(true);
    return this.replaceWith(() => this.platform.openScenario(path, this.templateId()));
  }

  /** Opens a scenario's unsaved work kept from an earlier run, in place of the open one. */
  restore(recoveryId: string): Promise<boolean> {
    return this.replaceWith(() => this.platform.restoreScenario(recoveryId, this.templateId()));
  }

  /**
   * Puts the scenario `load` gives in place of the open one, whose unsaved changes are settled
   * first; the old one is closed only once the new one is open, so a failed open loses nothing.
   */
  private replaceWith(load: () => Promise<Outcome<ScenarioView>>): Promise<boolean> {
    return this.queue.run(async () => {
      if (!(await this.settleUnsaved("switch"))) return false;
      const before = this.state.scenario;
      const loaded = await load();
      if (!this.accept(loaded, "The scenario was not opened", true)) return false;
      if (before !== null && loaded.ok && before.id !== loaded.value.id) await this.platform.closeScenario(before.id);
      this.replaced();
      await this.loadRecent();
      return true;
    });
  }

  /**
   * Settles the open scenario's unsaved changes: true when there are none, or they were saved or
   * let go; false when the user cancelled or the save did not happen.
   */
  async settleUnsaved(reason: "switch" | "close"): Promise<boolean> {
    const { scenario } = this.state;
    if (scenario === null || !scenario.dirty) return true;
    const answer = await this.askUnsaved(
      scenario.path === null ? "Untitled scenario" : fileName(scenario.path),
      reason,
    );
    if (answer === "cancel") return false;
    if (answer === "save") return this.write(null);
    return true;
  }

  /** Replaces the scenario with what the panel holds (`group`: keystrokes of one field undo together). */
  edit(scenario: Scenario, group: string | null): Promise<void> {
    return this.queue.run(async () => {
      const open = this.state.scenario;
      if (open === null) return;
      this.accept(
        await this.platform.editScenario(open.id, scenario, group, this.templateId()),
        "This change was not made",
        false,
      );
    });
  }

  /** Checks the scenario against the template as it is now (after the template was edited). */
  recheck(): Promise<void> {
    const open = this.state.scenario;
    return open === null ? Promise.resolve() : this.edit(open.scenario, null);
  }

  undo(): Promise<void> {
    return this.step(true);
  }

  redo(): Promise<void> {
    return this.step(false);
  }

  private step(back: boolean): Promise<void> {
    return this.queue.run(async () => {
      const open = this.state.scenario;
      if (open === null || !(back ? open.can_undo : open.can_redo)) return;
      this.accept(
        await this.platform.stepScenario(open.id, back, this.templateId()),
        back ? "Nothing was undone" : "Nothing was redone",
        true,
      );
    });
  }

  /** Saves to the scenario's file; an untitled one asks where. True once saved. */
  save(): Promise<boolean> {
    if (this.state.scenario?.path === null) return this.saveAs();
    return this.queue.run(() => this.write(null));
  }

  /** Asks where to save the scenario (the native dialog), then saves it there. */
  async saveAs(): Promise<boolean> {
    const open = this.state.scenario;
    if (open === null) return false;
    const suggested = open.path ?? `${open.scenario.name.replace(/[^A-Za-z0-9_-]+/g, "-")}.scenario.json`;
    const chosen = await this.platform.chooseFile("save_scenario", suggested);
    if (!chosen.ok) {
      this.outcome.fail(failureOf("The scenario was not saved", chosen.error));
      return false;
    }
    const path = chosen.value;
    return path === null ? false : this.queue.run(() => this.write(path));
  }

  private async write(path: string | null): Promise<boolean> {
    const open = this.state.scenario;
    if (open === null) return false;
    const saved = this.accept(
      await this.platform.saveScenario(open.id, path, this.templateId()),
      "The scenario was not saved",
      false,
    );
    if (saved && path !== null) await this.loadRecent();
    return saved;
  }

  /** Settles once the scenario actions asked for so far are done. */
  idle(): Promise<void> {
    return this.queue.idle();
  }
}
