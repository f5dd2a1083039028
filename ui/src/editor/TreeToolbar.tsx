// The buttons above the section tree that add, delete and move the selected section; each is
// disabled when its action is impossible where the section stands (structure.ts decides).
import {
  ArrowDown,
  ArrowUp,
  ListIndentDecrease,
  ListIndentIncrease,
  Plus,
  Trash2,
  type LucideIcon,
} from "lucide-react";
import type { Template } from "../platform";
import { canRestructure, type StructureAction } from "./structure";

// Each has a name for assistive technology and a tooltip with its key: five show only an icon.
const BUTTONS: { action: StructureAction; label: string; icon: LucideIcon; text?: string; hint: string }[] = [
  {
    action: "add_child",
    label: "Add child",
    icon: Plus,
    text: "Child",
    hint: "Add a subsection at the end of the selected section",
  },
  {
    action: "add_sibling",
    label: "Add sibling",
    icon: Plus,
    text: "Sibling",
    hint: "Add a section after the selected one (Insert, Ctrl+Shift+N)",
  },
  {
    action: "delete",
    label: "Delete section",
    icon: Trash2,
    hint: "Delete the selected section and its subsections (Delete)",
  },
  {
    action: "move_up",
    label: "Move up",
    icon: ArrowUp,
    hint: "Move the selected section up among its siblings (Alt+↑)",
  },
  {
    action: "move_down",
    label: "Move down",
    icon: ArrowDown,
    hint: "Move the selected section down among its siblings (Alt+↓)",
  },
  {
    action: "indent",
    label: "Indent",
    icon: ListIndentIncrease,
    hint: "Indent: make the selected section the last subsection of the one above (Alt+→)",
  },
  {
    action: "outdent",
    label: "Outdent",
    icon: ListIndentDecrease,
    hint: "Outdent: make the selected section the next sibling of its parent (Alt+←)",
  },
];

export function TreeToolbar({
  template,
  selected,
  onAction,
}: {
  template: Template;
  selected: string | null;
  onAction: (action: StructureAction) => void;
}) {
  return (
    <div className="tree-toolbar" role="toolbar" aria-label="Section structure" data-testid="tree-toolbar">
      {BUTTONS.map(({ action, label, icon: Icon, text, hint }) => (
        <button
          key={action}
          type="button"
          aria-label={label}
          title={hint}
          data-action={action}
          disabled={!canRestructure(template, selected, action)}
          onClick={() => {
            onAction(action);
          }}
        >
          <Icon aria-hidden="true" />
          {text}
        </button>
      ))}
    </div>
  );
}
