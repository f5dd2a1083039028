// The user turns of a scenario above the form that edits one of them: a tab per turn, one to add a
// turn and one to remove the turn shown (a scenario keeps at least one). The edits are turns.ts'.
import type { Scenario } from "../platform";
import { addTurn, removeTurn, turnCount } from "./turns";

export interface TurnTabsProps {
  scenario: Scenario;
  /** The turn the form shows (0-based). */
  turn: number;
  onTurn: (turn: number) => void;
  onChange: (scenario: Scenario, group: string | null) => void;
}

export function TurnTabs({ scenario, turn, onTurn, onChange }: TurnTabsProps) {
  const count = turnCount(scenario);
  const removed = removeTurn(scenario, turn);
  return (
    <div className="scenario-turns" data-testid="scenario-turns">
      <div role="tablist" aria-label="User turns">
        {Array.from({ length: count }, (_, index) => (
          <button
            key={index}
            type="button"
            role="tab"
            aria-selected={index === turn}
            data-testid="scenario-turn"
            title={`The user's message ${String(index + 1)} and what the model does until it answers it`}
            onClick={() => {
              onTurn(index);
            }}
          >
            Turn {index + 1}
          </button>
        ))}
      </div>
      <button
        type="button"
        data-testid="add-turn"
        title="The user says something more once the model has answered"
        onClick={() => {
          const added = addTurn(scenario);
          onChange(added.scenario, added.group);
          onTurn(count);
        }}
      >
        Add a turn
      </button>
      {removed !== null && (
        <button
          type="button"
          data-testid="remove-turn"
          onClick={() => {
            onChange(removed.scenario, removed.group);
            onTurn(Math.max(turn - 1, 0));
          }}
        >
          Remove turn {turn + 1}
        </button>
      )}
    </div>
  );
}
