// The economics of the open template's disclosure: what the model is shown first against every
// section in full, what the disclosure tool's definition adds, what reading each summarized
// section adds. Read again a moment after the template stops changing (a render per summarized
// section: not a keystroke's work), and worded for the preview pane and the tree.
import type { DisclosureEconomics, Platform, SectionSize, Template } from "../platform";
import { ExternalStore } from "../shared/ExternalStore";
import type { EditorStore } from "./store";

/** How long the template stays unchanged before its economics are read again. */
export const ECONOMICS_DELAY_MS = 400;

export interface EconomicsState {
  /** As last read; null until read, or while the template does not render (the preview says why). */
  economics: DisclosureEconomics | null;
}

export class EconomicsStore extends ExternalStore<EconomicsState> {
  private template: Template | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private asked = 0;

  constructor(
    private readonly platform: Platform,
    private readonly editor: EditorStore,
    private readonly delay = ECONOMICS_DELAY_MS,
  ) {
    super({ economics: null });
    editor.subscribe(() => {
      this.follow();
    });
    this.follow();
  }

  /**
   * Reads the economics again once the template has stayed as it is for `delay`, and `delay` after
   * it opens: not while the first screen is drawn (a 5,000-section template's figures are 0.4 MB of
   * JSON to parse, and their reading shares the machine with the first preview's).
   */
  private follow(): void {
    const { template } = this.editor.getState().document;
    if (template === this.template) return;
    this.template = template;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.read(), this.delay);
  }

  /** Reads the economics of the template as it stands; an older answer arriving late is dropped. */
  async read(): Promise<void> {
    this.timer = null;
    const asked = ++this.asked;
    const result = await this.platform.templateEconomics(this.editor.getState().document.id);
    if (asked !== this.asked) return;
    this.update({ economics: result.ok ? result.value : null });
  }
}

/** "1,236 of 18,854 tokens shown first (−93.4 %)": what summarizing saves on the first prompt. */
export function firstPromptText(economics: DisclosureEconomics): string {
  const { first_tokens: first, all_full_tokens: full } = economics;
  const percent =
    full === 0 || first === full
      ? ""
      : ` (${first < full ? "−" : "+"}${((Math.abs(first - full) * 100) / full).toFixed(1)} %)`;
  return `${first.toLocaleString("en-US")} of ${full.toLocaleString("en-US")} tokens shown first${percent}`;
}

/**
 * Why the first prompt is longer than everything in full, when it is: the disclosure tool's
 * definition sent with it. Null when summarizing saves tokens.
 */
export function longerBecause(economics: DisclosureEconomics): string | null {
  if (economics.first_tokens <= economics.all_full_tokens) return null;
  const tools = economics.disclosure_tools.map(
    (tool) => `${tool.name}'s definition (${tool.tokens.toLocaleString("en-US")} tokens)`,
  );
  const sent = tools.length === 0 ? "the summaries' notes" : `${tools.join(" and ")} and the summaries' notes`;
  return `Summarizing makes this prompt longer: ${sent} cost more than the text they hide.`;
}

/** "Reading it adds 2,345 prompt tokens and 5 tools", for a summarized section's tooltip. */
export function readCostText(readTokens: number, tools: number): string {
  const change =
    readTokens >= 0 ? `adds ${readTokens.toLocaleString("en-US")}` : `saves ${(-readTokens).toLocaleString("en-US")}`;
  const withTools = tools === 0 ? "" : ` and ${String(tools)} tool${tools === 1 ? "" : "s"}`;
  return `Reading it ${change} prompt tokens${withTools}`;
}

/** "+2.3k", "+845", "−91": a read cost short enough for a tree row. */
export function shortTokens(tokens: number): string {
  const sign = tokens >= 0 ? "+" : "−";
  const size = Math.abs(tokens);
  return `${sign}${size >= 1000 ? `${(size / 1000).toFixed(1)}k` : String(size)}`;
}

/** One section's own size in its three parts, for its editor and its row's tooltip. */
export interface SectionSizeParts {
  full: string;
  /** Null when it has no summary. */
  summary: string | null;
  tools: string;
}

const tokenCount = (tokens: number) => `${tokens.toLocaleString("en-US")} token${tokens === 1 ? "" : "s"}`;

/** "1,234 tokens" in full, summarized and for its tools. */
export function sectionSizeParts(size: SectionSize): SectionSizeParts {
  return {
    full: tokenCount(size.full_tokens),
    summary: size.summary_tokens === null ? null : tokenCount(size.summary_tokens),
    tools: tokenCount(size.tool_tokens),
  };
}

/** "In full 1,234 tokens, summarized 56 tokens, its tools 789 tokens": one line for a tooltip. */
export function sectionSizeText(size: SectionSize): string {
  const parts = sectionSizeParts(size);
  const summarized = parts.summary === null ? "no summary" : `summarized ${parts.summary}`;
  return `In full ${parts.full}, ${summarized}, its tools ${parts.tools}`;
}
