// The command palette's commands and how a query finds them: a command is a title (and a detail,
// such as a section's path) with the keys of its shortcut, whether it can be done where the user
// is, and what it does. A query's words each find a word of the command, best where a word begins
// (words typed in part: "go ex" finds "Go to section: Examples"), then anywhere inside one, then as
// letters in order ("cmp" finds "Compare"); the commands found are ranked by how well, those that
// can be done first, shorter ones before longer, and otherwise keep the order they are listed in.

export interface PaletteCommand {
  /** Unique among the commands listed together. */
  id: string;
  title: string;
  /** Shown after the title, and searched with it (a section's path, a file's). */
  detail?: string;
  /** The keys of its shortcut, as the shortcut help writes them. */
  keys?: string;
  /** False where it does nothing (shown, but not done). */
  available: boolean;
  perform: () => void;
}

// How well one typed word finds one word of a command, best first (0: it does not).
const WHOLE_WORD = 4;
const WORD_START = 3;
const INSIDE_WORD = 2;
const LETTERS_IN_ORDER = 1;

/** The words of a text, lower case (letters and digits; anything else separates them). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** How well `typed` (one lower-case word) finds `word`: 0 when it does not. */
function wordScore(typed: string, word: string): number {
  if (word === typed) return WHOLE_WORD;
  if (word.startsWith(typed)) return WORD_START;
  if (word.includes(typed)) return INSIDE_WORD;
  return typed.length > 1 && lettersInOrder(typed, word) ? LETTERS_IN_ORDER : 0;
}

/** Whether every letter of `typed` is in `word`, in the same order. */
function lettersInOrder(typed: string, word: string): boolean {
  let from = 0;
  for (const letter of typed) {
    from = word.indexOf(letter, from) + 1;
    if (from === 0) return false;
  }
  return true;
}

/**
 * How well `query` finds `text`: the sum over the query's words of the best each finds, or null
 * when one of them finds nothing. An empty query finds everything, equally.
 */
export function matchScore(query: string, text: string): number | null {
  const words = wordsOf(text);
  let score = 0;
  for (const typed of wordsOf(query)) {
    const best = Math.max(0, ...words.map((word) => wordScore(typed, word)));
    if (best === 0) return null;
    score += best;
  }
  return score;
}

/**
 * The commands `query` finds, best first: those that can be done before the others, then by score,
 * then the shorter (what was typed is more of it), then in the order they are listed.
 */
export function rankCommands<C extends PaletteCommand>(commands: readonly C[], query: string): C[] {
  const typed = wordsOf(query).length > 0;
  return commands
    .flatMap((command, index) => {
      const text = searchedText(command);
      const score = matchScore(query, text);
      return score === null ? [] : [{ command, index, score, length: typed ? wordsOf(text).length : 0 }];
    })
    .sort(
      (a, b) =>
        Number(b.command.available) - Number(a.command.available) ||
        b.score - a.score ||
        a.length - b.length ||
        a.index - b.index,
    )
    .map((found) => found.command);
}

function searchedText(command: PaletteCommand): string {
  return command.detail === undefined ? command.title : `${command.title} ${command.detail}`;
}

/**
 * The next command that can be done after `from` in `step`'s direction (1 down, −1 up), round the
 * ends; `from` itself when no other can, or null when none can.
 */
export function nextAvailable(commands: readonly PaletteCommand[], from: number, step: 1 | -1): number | null {
  const count = commands.length;
  for (let moved = 1; moved <= count; moved++) {
    const index = (((from + step * moved) % count) + count) % count;
    if (commands[index]?.available === true) return index;
  }
  return null;
}
