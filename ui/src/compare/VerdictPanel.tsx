// The comparison's answer, first on the page: the verdict's sentence (which lane wins against
// all-FULL, by how much and why), what else changes it (the prompt cache), then each lane coloured
// by its standing with what it spent beside all-FULL and why. The tables and the timeline below
// are the details.
import type { Verdict } from "../platform";
import { laneFigures, standingText } from "./verdict";

export function VerdictPanel({ verdict }: { verdict: Verdict }) {
  return (
    <section className="verdict" data-testid="verdict" data-winner={verdict.winner ?? ""} aria-label="Verdict">
      <p className="verdict-headline" data-testid="verdict-headline">
        {verdict.headline}
      </p>
      {verdict.notes.map((note) => (
        <p className="verdict-note" data-testid="verdict-note" key={note}>
          {note}
        </p>
      ))}
      <ul className="verdict-lanes">
        {verdict.lanes.map((lane) => (
          <li
            key={lane.lane}
            className={`verdict-lane ${lane.standing}`}
            data-testid="verdict-lane"
            data-lane={lane.lane}
            data-standing={lane.standing}
          >
            <span className="verdict-lane-name">{lane.lane}</span>{" "}
            <span className="verdict-standing">{standingText(lane.standing)}</span>
            <span className="verdict-figures">{laneFigures(lane, verdict.currency).join(" · ")}</span>
            <span className="verdict-because">{lane.because}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
