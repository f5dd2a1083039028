// The `$` forms of a section's text as the core reads them (crates/unfold-documents/src/substitution.rs,
// Python `string.Template` rules): `${name}` and `$name` are placeholders, `$$` is a literal `$`, any
// other `$` is invalid; names are ASCII identifiers. From them, the warnings the section editor shows:
// each invalid `$` in the core's own words, and each placeholder the template has no default for
// (which names the parameter, so that the editor can offer to define it). A parameter's name follows
// the same identifier rule. The title is not substituted (the core copies it as written), so it gets
// a note instead.

/** A placeholder or an invalid `$`, at offsets `from`..`to` of the text (UTF-16, as strings index). */
export type PlaceholderToken =
  | { kind: "param"; name: string; from: number; to: number }
  | { kind: "invalid"; from: number; to: number; message: string };

const IDENTIFIER_START = /^[A-Za-z_]$/;
const IDENTIFIER_PART = /^[A-Za-z0-9_]$/;

/** The length of the ASCII identifier at `at` in `text` (0: none starts there). */
function identifierLength(text: string, at: number): number {
  if (!IDENTIFIER_START.test(text.charAt(at))) return 0;
  let end = at + 1;
  while (IDENTIFIER_PART.test(text.charAt(end))) end++;
  return end - at;
}

/**
 * Whether `name` is an ASCII identifier (letters, digits and `_`, not starting with a digit): a name
 * a placeholder can hold, which is the core's rule for parameter names (`is_param_name`).
 */
export function isParamName(name: string): boolean {
  return name !== "" && identifierLength(name, 0) === name.length;
}

/**
 * A function from offsets, asked in increasing order, to the core's 1-based line (counted by `\n`)
 * and column (counted in characters, so a surrogate pair is one column).
 */
function positions(text: string): (offset: number) => { line: number; column: number } {
  let at = 0;
  let line = 1;
  let column = 1;
  return (offset) => {
    for (; at < offset; at++) {
      const code = text.charCodeAt(at);
      if (code === 0x0a) {
        line++;
        column = 1;
      } else if (code < 0xdc00 || code > 0xdfff) {
        // A low surrogate ends the character its high surrogate already counted.
        column++;
      }
    }
    return { line, column };
  };
}

/** The core's message for an invalid `$` (`SubstitutionError::InvalidPlaceholder`). */
export function invalidPlaceholderMessage(line: number, column: number): string {
  return `invalid placeholder at line ${line}, column ${column}: use \${name} or $name, and $$ for a literal $`;
}

/**
 * Every placeholder and invalid `$` of `text`, in order. The core stops at the first invalid `$`
 * (the text does not render); this goes on after it, from the character after the `$`, as Python
 * does when it finds them all, so that every mistake and every later placeholder shows at once.
 */
export function scanPlaceholders(text: string): PlaceholderToken[] {
  const tokens: PlaceholderToken[] = [];
  const positionOf = positions(text);
  const invalid = (from: number): PlaceholderToken => {
    const { line, column } = positionOf(from);
    return { kind: "invalid", from, to: from + 1, message: invalidPlaceholderMessage(line, column) };
  };
  let at = text.indexOf("$");
  while (at !== -1) {
    let next: number;
    if (text.charAt(at + 1) === "$") {
      next = at + 2;
    } else if (text.charAt(at + 1) === "{") {
      const length = identifierLength(text, at + 2);
      if (length > 0 && text.charAt(at + 2 + length) === "}") {
        next = at + 3 + length;
        tokens.push({ kind: "param", name: text.slice(at + 2, at + 2 + length), from: at, to: next });
      } else {
        next = at + 1;
        tokens.push(invalid(at));
      }
    } else {
      const length = identifierLength(text, at + 1);
      if (length > 0) {
        next = at + 1 + length;
        tokens.push({ kind: "param", name: text.slice(at + 1, next), from: at, to: next });
      } else {
        next = at + 1;
        tokens.push(invalid(at));
      }
    }
    at = text.indexOf("$", next);
  }
  return tokens;
}

/** Why a placeholder without a default is a risk: the core's render fails without a value for it. */
export function unknownParamMessage(name: string): string {
  return `Unknown parameter \${${name}}: the template has no default for it, so a render without a value for it fails ("missing parameter '${name}'")`;
}

/** The names `text` uses that are not among `params`, each once, in order of first use. */
export function unknownParams(text: string, params: readonly string[]): string[] {
  const known = new Set(params);
  const unknown = new Set<string>();
  for (const token of scanPlaceholders(text)) {
    if (token.kind === "param" && !known.has(token.name)) unknown.add(token.name);
  }
  return [...unknown];
}

/** A warning under a field; `param` names the unknown parameter it is about (null: another kind). */
export interface FieldWarning {
  message: string;
  param: string | null;
}

/**
 * The warnings for a template or summary text, in the order of the text: each invalid `$`, and each
 * name not among `params` (the template's parameters) at its first use.
 */
export function placeholderWarnings(text: string, params: readonly string[]): FieldWarning[] {
  const known = new Set(params);
  const reported = new Set<string>();
  const warnings: FieldWarning[] = [];
  for (const token of scanPlaceholders(text)) {
    if (token.kind === "invalid") {
      warnings.push({ message: token.message, param: null });
    } else if (!known.has(token.name) && !reported.has(token.name)) {
      reported.add(token.name);
      warnings.push({ message: unknownParamMessage(token.name), param: token.name });
    }
  }
  return warnings;
}

/** The note for a title that looks like it has placeholders: the core shows titles as written. */
export function titleWarnings(title: string): string[] {
  const forms = new Set<string>();
  for (const token of scanPlaceholders(title)) {
    if (token.kind === "param") forms.add(title.slice(token.from, token.to));
  }
  if (forms.size === 0) return [];
  const list = [...forms].join(", ");
  const verb = forms.size === 1 ? "is" : "are";
  return [
    `The title is shown as written: ${list} ${verb} not replaced by a value; only the template and the summary take parameters`,
  ];
}
