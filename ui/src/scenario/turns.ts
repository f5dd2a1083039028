// The turns of a scenario as the panel edits them (spec 12): one turn at a time, seen as the
// one-turn form (its `user` and `script` beside the scenario's other fields) so every edit of
// scenarioEdits.ts applies to it unchanged, then put back in its place. A scenario of one turn keeps
// the one-turn form, so a file that never had `turns` keeps its bytes; adding a second turn writes
// `turns`, and removing down to one writes the one-turn form again.
import type { Scenario } from "../platform";
import type { ScenarioEdit } from "./scenarioEdits";

/** One user turn: the user's message and the script the model follows until it answers. */
type Turn = NonNullable<Scenario["turns"]>[number];

/** How many user turns `scenario` has (the one-turn form has one). */
export function turnCount(scenario: Scenario): number {
  return Math.max(scenario.turns?.length ?? 1, 1);
}

/** `scenario` as the panel shows turn `turn` (0-based): that turn's message and script in the one-turn form. */
export function turnView(scenario: Scenario, turn: number): Scenario {
  const turns = scenario.turns ?? [];
  const shown = turns[Math.min(turn, turns.length - 1)];
  return shown === undefined ? scenario : oneTurnForm(scenario, shown);
}

/** `scenario`'s fields but its turns, with `turn` as its one user message and script. */
function oneTurnForm(scenario: Scenario, turn: Turn): Scenario {
  const rest = Object.fromEntries(Object.entries(scenario).filter(([key]) => key !== "turns")) as Scenario;
  return { ...rest, user: turn.user, script: turn.script };
}

/** `scenario` with `view`, an edited [`turnView`] of turn `turn`, put back: its turn in place, its other fields as they are. */
export function withTurnView(scenario: Scenario, turn: number, view: Scenario): Scenario {
  const turns = scenario.turns ?? [];
  if (turns.length === 0) return view;
  const { user, script, ...rest } = view;
  const edited = turns.map((shown, index): Turn =>
    index === turn ? { ...shown, user: user ?? "", script: script ?? [] } : shown,
  );
  return { ...rest, turns: edited };
}

/** The undo group of an edit of turn `turn`: the first turn's are the one-turn form's, the others' their own. */
export function turnGroup(turn: number, group: string | null): string | null {
  return group === null || turn === 0 ? group : `turns/${String(turn)}/${group}`;
}

/** Adds a user turn at the end, whose script is a final answer yet to write. */
export function addTurn(scenario: Scenario): ScenarioEdit {
  const fresh: Turn = { user: "", script: [{ say: "" }] };
  const turns = scenario.turns ?? [];
  if (turns.length > 0) return { scenario: { ...scenario, turns: [...turns, fresh] }, group: null };
  const { user, script, ...rest } = scenario;
  return { scenario: { ...rest, turns: [{ user: user ?? "", script: script ?? [] }, fresh] }, group: null };
}

/** Removes turn `turn`; null when it is the only one. The last turn left is written in the one-turn form. */
export function removeTurn(scenario: Scenario, turn: number): ScenarioEdit | null {
  const turns = scenario.turns ?? [];
  if (turns.length < 2 || turn < 0 || turn >= turns.length) return null;
  const left = turns.filter((_, index) => index !== turn);
  const [only] = left;
  if (left.length > 1 || only === undefined) return { scenario: { ...scenario, turns: left }, group: null };
  return { scenario: oneTurnForm(scenario, only), group: null };
}
