// What a finished comparison can be exported as, in one list that the Compare page's Export menu and
// the command palette both read, so that the two say the same thing and do the same thing.
import type { ComparisonStore } from "./store";

/** One form a finished comparison is written in. */
export interface ComparisonExport {
  /** Its id among the palette's commands (after "comparison:") and its menu item's test id. */
  id: "markdown" | "report" | "chart-png" | "chart-svg";
  /** The menu item's words; the palette's after "Comparison: ". */
  label: string;
  /** What it writes, as the menu item's tooltip. */
  title: string;
  /** Whether it saves the chart as drawn, which only the Compare page draws. */
  drawsChart: boolean;
  /** Asks where to write it, then writes it; says how it went through the store's outcome. */
  perform: (store: ComparisonStore) => Promise<void>;
}

/** A finished comparison's exports, in the Export menu's order. */
export const COMPARISON_EXPORTS: readonly ComparisonExport[] = [
  {
    id: "markdown",
    label: "Markdown for a pull request…",
    title: "The verdict, each lane beside all-FULL and the first divergence, as Markdown",
    drawsChart: false,
    perform: (store) => store.exportReport("markdown"),
  },
  {
    id: "report",
    label: "Report (JSON)…",
    title: "The whole comparison report, as unfold compare --json writes it",
    drawsChart: false,
    perform: (store) => store.exportReport("json"),
  },
  {
    id: "chart-png",
    label: "Chart as PNG…",
    title: "The chart as drawn, with its title and legend, as PNG",
    drawsChart: true,
    perform: (store) => store.exportChart("png"),
  },
  {
    id: "chart-svg",
    label: "Chart as SVG…",
    title: "The chart as drawn, with its title and legend, as SVG",
    drawsChart: true,
    perform: (store) => store.exportChart("svg"),
  },
];

/** The words of the item that adds the comparison as a case to `suite` (a file name), or to a suite chosen. */
export function suiteCaseLabel(suite: string | null): string {
  return suite === null ? "Add as a case to a suite…" : `Add as a case to ${suite}`;
}
