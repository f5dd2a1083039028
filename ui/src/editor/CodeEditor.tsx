// The code field's editor, drawn by CodeField once this chunk is loaded: a CodeMirror EditorView,
// a controlled field like a textarea (`value` in, every change out through `onChange` with the
// whole text) that can mark the `$` forms of its text (placeholders, those the template has no
// default for, invalid `$`) and completes `${` with the template's parameters
// (`parameterCompletion`, loaded apart). It keeps no history of its own: Ctrl+Z and the redo keys
// reach the page, whose undo covers the whole document. Its layout is in index.css, because the
// app's CSP refuses the <style> element CodeMirror would add.
import {
  Annotation,
  Compartment,
  EditorSelection,
  EditorState,
  type Extension,
  StateField,
  type Text,
  Transaction,
} from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, keymap, placeholder as hint } from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { completionModule, parameterCompletion } from "./parameterCompletion";
import { scanPlaceholders, unknownParamMessage } from "./placeholders";

export interface CodeFieldProps {
  /** The text; a value other than the field's own text replaces it (it is not reported back). */
  value: string;
  onChange: (value: string) => void;
  /** On the element that takes the keys (`.cm-content`), as on the inputs it replaces. */
  testId: string;
  /** The field's accessible name. */
  label: string;
  /** One line (a title): Enter does nothing and pasted line breaks become spaces. */
  singleLine?: boolean;
  /**
   * The template's parameter names: the field marks its placeholders, those not among these, and
   * invalid `$`. Absent: the text is plain.
   */
  params?: readonly string[];
  /** How many lines high the field is at least (1 unless told). */
  rows?: number;
  /** Shown while the field is empty. */
  placeholder?: string;
  /** The id of what describes the field (its warnings). */
  describedBy?: string;
  spellCheck?: boolean;
}

/** Marks a transaction that brings in a value from outside, so that it is not reported back. */
const fromOutside = Annotation.define<boolean>();

const PARAM_MARK = Decoration.mark({ class: "cm-param" });

function placeholderMarks(doc: Text, known: ReadonlySet<string>): DecorationSet {
  const marks = scanPlaceholders(doc.toString()).map((token) => {
    if (token.kind === "invalid") {
      return Decoration.mark({ class: "cm-param-invalid", attributes: { title: token.message } }).range(
        token.from,
        token.to,
      );
    }
    if (known.has(token.name)) return PARAM_MARK.range(token.from, token.to);
    return Decoration.mark({
      class: "cm-param cm-param-unknown",
      attributes: { title: unknownParamMessage(token.name) },
    }).range(token.from, token.to);
  });
  return Decoration.set(marks);
}

/** Marks the placeholders of the text, checked against `params`, again after every change. */
function placeholderHighlighting(params: readonly string[]): Extension {
  const known = new Set(params);
  return StateField.define<DecorationSet>({
    create: (state) => placeholderMarks(state.doc, known),
    update: (marks, transaction) => (transaction.docChanged ? placeholderMarks(transaction.newDoc, known) : marks),
    provide: (field) => EditorView.decorations.from(field),
  });
}

/**
 * What can change after the view is made: the names checked against, the empty field's hint, and
 * whether the completion of the names is loaded.
 */
interface Marking {
  params: readonly string[] | null;
  placeholder: string | null;
  completes: boolean;
}

function markingExtensions({ params, placeholder }: Marking): Extension {
  return [
    params === null ? [] : [placeholderHighlighting(params), parameterCompletion(params)],
    placeholder === null ? [] : hint(placeholder),
  ];
}

/** Keeps a single-line field on one line: no Enter, and line breaks typed or pasted become spaces. */
const singleLineExtensions: Extension = [
  keymap.of([{ key: "Enter", run: () => true }]),
  // A space for a "\n" keeps every length, so the transaction's selection stays right. A value from
  // outside is taken as it is.
  EditorState.transactionFilter.of((transaction) => {
    if (!transaction.docChanged || transaction.annotation(fromOutside) === true) return transaction;
    const changes: { from: number; to: number; insert: string }[] = [];
    transaction.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
      changes.push({ from, to, insert: inserted.toString() });
    });
    if (!changes.some((change) => change.insert.includes("\n"))) return transaction;
    return {
      changes: changes.map((change) => ({ ...change, insert: change.insert.replaceAll("\n", " ") })),
      selection: transaction.selection,
      effects: transaction.effects,
      scrollIntoView: transaction.scrollIntoView,
      userEvent: transaction.annotation(Transaction.userEvent),
    };
  }),
];

/** The one change that turns `from` into `to`, keeping what they start and end with in common. */
function replacement(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  const shorter = Math.min(from.length, to.length);
  while (start < shorter && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

/** The field's editor: CodeMirror over `value`, reporting every change through `onChange`. */
export function CodeEditor({
  value,
  onChange,
  testId,
  label,
  singleLine = false,
  rows = 1,
  params,
  placeholder,
  describedBy,
  spellCheck = false,
}: CodeFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const completion = useSyncExternalStore(completionModule.subscribe, completionModule.getState).loaded;
  const completes = completion !== undefined && "module" in completion;
  // Compared by content: the list of names is usually built anew on every render.
  const markingKey = JSON.stringify({
    params: params ?? null,
    placeholder: placeholder ?? null,
    completes,
  } satisfies Marking);
  // What a view is made with: the attributes as they first were (later changes are not followed),
  // the text and the marking as they last were (a view made again starts from them).
  const made = useRef({ text: value, markingKey, testId, label, singleLine, describedBy, spellCheck });
  const onChangeRef = useRef(onChange);
  const marking = useRef(new Compartment());

  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });

  useLayoutEffect(() => {
    const parent = host.current;
    if (parent === null) return;
    const config = made.current;
    const created = new EditorView({
      parent,
      state: EditorState.create({
        doc: config.text,
        // The cursor starts at the end, as WebDriver's Send Keys expects of an editable element:
        // CodeMirror puts back its own cursor when the browser moves it to the start on focus.
        selection: EditorSelection.cursor(config.text.length),
        extensions: [
          // Only "\n" breaks lines, as the core counts them: offsets are the string's own, and a
          // "\r" stays in the text instead of being turned into "\n".
          EditorState.lineSeparator.of("\n"),
          config.singleLine ? singleLineExtensions : [],
          keymap.of(defaultKeymap),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            "data-testid": config.testId,
            "aria-label": config.label,
            "aria-multiline": config.singleLine ? "false" : "true",
            spellcheck: config.spellCheck ? "true" : "false",
            ...(config.describedBy === undefined ? {} : { "aria-describedby": config.describedBy }),
          }),
          EditorView.domEventHandlers({
            // A field focused before the first screen was drawn completes too.
            focus: () => {
              void completionModule.load();
              return false;
            },
            // The browser's own undo (an Edit menu) would change the text behind the document's
            // history, and CodeMirror has none here: leave undo to the page.
            beforeinput: (event) => {
              if (event.inputType !== "historyUndo" && event.inputType !== "historyRedo") return false;
              event.preventDefault();
              return true;
            },
          }),
          marking.current.of(markingExtensions(JSON.parse(config.markingKey) as Marking)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const text = update.state.doc.toString();
            made.current.text = text;
            if (update.transactions.some((t) => t.docChanged && t.annotation(fromOutside) !== true)) {
              onChangeRef.current(text);
            }
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      view.current = null;
      created.destroy();
    };
  }, []);

  // A layout effect runs in the same task as the render it follows, so `value` is never older than
  // a change typed since: only a value from outside differs from the text here.
  useLayoutEffect(() => {
    const current = view.current;
    if (current === null) return;
    const text = current.state.doc.toString();
    if (text === value) return;
    current.dispatch({ changes: replacement(text, value), annotations: fromOutside.of(true) });
  }, [value]);

  useEffect(() => {
    const current = view.current;
    if (current === null || markingKey === made.current.markingKey) return;
    made.current.markingKey = markingKey;
    current.dispatch({ effects: marking.current.reconfigure(markingExtensions(JSON.parse(markingKey) as Marking)) });
  }, [markingKey]);

  // A custom property is set through the CSS object model, which the app's CSP allows.
  const style = { "--code-field-rows": String(rows) } as CSSProperties;
  return <div ref={host} className="code-field" style={style} />;
}
