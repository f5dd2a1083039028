// One tool list — the template's own tools or a section's: each tool's name (click it to edit it)
// and description with move up/down and remove, "New tool" (a blank, valid tool under a free name,
// opened in the editor), and the tool editor for the open tool, which follows it when the list is
// reordered and closes when it is removed.
import { ArrowDown, ArrowUp } from "lucide-react";
import { useState } from "react";
import type { Outcome, ProblemView, Tool, ToolOwner } from "../platform";
import type { EditorStore } from "./store";
import { ToolEditor } from "./ToolEditor";
import { followTool } from "./tools";

/** What a tool list does to the document. */
export interface ToolActions {
  remove: (index: number) => void;
  move: (index: number, step: 1 | -1) => void;
  /** Appends a blank tool. */
  add: () => void;
  /** Replaces the tool at `index`. */
  apply: (index: number, tool: Tool) => void;
  /** The problems of a tool's JSON text at `index`. */
  check: (index: number, toolJson: string) => Promise<Outcome<ProblemView[]>>;
  /** The problems keeping the draft of the tool at `index` from being applied (none: it applies). */
  unapplied: (index: number, name: string, problems: ProblemView[]) => void;
}

/** The actions of `owner`'s tool list, done by `store`. */
export function storeToolActions(store: EditorStore, owner: ToolOwner): ToolActions {
  return {
    remove: (index) => void store.removeTool(owner, index),
    move: (index, step) => void store.moveTool(owner, index, step),
    add: () => void store.addTool(owner),
    apply: (index, tool) => void store.replaceTool(owner, index, tool),
    check: (index, toolJson) => store.checkTool(owner, index, toolJson),
    unapplied: (index, name, problems) => {
      store.reportUnappliedTool(owner, index, name, problems);
    },
  };
}

export function ToolList({
  tools,
  revision,
  testId,
  itemTestId,
  actions,
}: {
  tools: readonly Tool[];
  /** The document's undo/redo count: the editor re-reads the tool when it changes. */
  revision: number;
  /** The list's data-testid. */
  testId: string;
  /** Each tool's data-testid. */
  itemTestId: string;
  actions: ToolActions;
}) {
  /** The position of the tool in the editor; it follows the tool when the list changes. */
  const [open, setOpen] = useState<number | null>(null);
  /** Counts the tools opened: each starts the editor afresh (a moved tool keeps its draft). */
  const [opened, setOpened] = useState(0);
  const show = (index: number | null) => {
    setOpen(index);
    setOpened((count) => count + 1);
  };
  const openTool = open === null ? undefined : tools[open];

  return (
    <>
      {tools.length === 0 ? (
        <p className="notice" data-testid={testId}>
          No tools
        </p>
      ) : (
        <ul className="tool-rows" data-testid={testId}>
          {tools.map((tool, index) => (
            <li key={`${String(index)}:${tool.name}`} data-testid={itemTestId} data-name={tool.name}>
              <button
                type="button"
                className="tool-name"
                data-testid="edit-tool"
                aria-label={`Edit ${tool.name}`}
                aria-pressed={open === index}
                onClick={() => {
                  show(open === index ? null : index);
                }}
              >
                <code>{tool.name}</code>
              </button>{" "}
              <span className="description">{tool.description}</span>
              <button
                type="button"
                aria-label={`Move ${tool.name} up`}
                title={`Move ${tool.name} up`}
                disabled={index === 0}
                onClick={() => {
                  setOpen(followTool(open, { kind: "move", from: index, to: index - 1 }));
                  actions.move(index, -1);
                }}
              >
                <ArrowUp aria-hidden="true" />
              </button>
              <button
                type="button"
                aria-label={`Move ${tool.name} down`}
                title={`Move ${tool.name} down`}
                disabled={index === tools.length - 1}
                onClick={() => {
                  setOpen(followTool(open, { kind: "move", from: index, to: index + 1 }));
                  actions.move(index, 1);
                }}
              >
                <ArrowDown aria-hidden="true" />
              </button>
              <button
                type="button"
                aria-label={`Remove ${tool.name}`}
                onClick={() => {
                  setOpen(followTool(open, { kind: "remove", index }));
                  actions.remove(index);
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        data-testid="new-tool"
        onClick={() => {
          // The new tool goes last; the editor shows it once the document has it.
          show(tools.length);
          actions.add();
        }}
      >
        New tool
      </button>
      {open !== null && openTool !== undefined && (
        <ToolEditor
          // Another tool opened, or a document changed by undo/redo: start from the tool again. Not
          // keyed by its owner: a rename of the section keeps the draft (another section's tools are
          // another list).
          key={`${String(opened)}#${String(revision)}`}
          tool={openTool}
          onCheck={(toolJson) => actions.check(open, toolJson)}
          onApply={(tool) => {
            actions.apply(open, tool);
          }}
          onClose={() => {
            setOpen(null);
          }}
          onUnapplied={(name, problems) => {
            actions.unapplied(open, name, problems);
          }}
        />
      )}
    </>
  );
}
