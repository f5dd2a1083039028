// A drop-down on a <details> element, as the header's File and Export menus use it: it closes once
// an item is picked, with Escape (focus back on its button), or with a click anywhere else. As a
// `menu` its button says it opens one (aria-haspopup), its items are menu items, opening it focuses
// the first and the arrow keys move between them, as a menu's keyboard does.
import { ChevronDown } from "lucide-react";
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";

const MENU_ITEM = '[role="menuitem"]:not(:disabled)';

export function DropDownMenu({
  className,
  testId,
  label,
  ariaLabel,
  buttonTestId,
  title,
  menu = false,
  keepsOpen = () => false,
  children,
}: {
  className: string;
  testId: string;
  /** The button's text (empty: the chevron alone, named by `ariaLabel`). */
  label: string;
  /** The button's and the menu's accessible name, when the text is not (or is none). */
  ariaLabel?: string;
  buttonTestId: string;
  title?: string;
  /** Whether its items are a menu's items (`role="menuitem"`), which the arrow keys move between. */
  menu?: boolean;
  /** Whether picking the button `target` is in leaves the drop-down open (a nested list does its own closing). */
  keepsOpen?: (target: Element) => boolean;
  children: ReactNode;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const closeOutside = (event: PointerEvent) => {
      const element = details.current;
      if (element?.open === true && event.target instanceof Node && !element.contains(event.target))
        element.open = false;
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => {
      document.removeEventListener("pointerdown", closeOutside);
    };
  }, []);
  return (
    <details
      ref={details}
      className={className}
      data-testid={testId}
      onClick={(event) => {
        const target = event.target instanceof Element ? event.target : null;
        if (target !== null && target.closest("button") !== null && !keepsOpen(target))
          event.currentTarget.open = false;
      }}
      onToggle={(event) => {
        if (menu && event.currentTarget.open) event.currentTarget.querySelector<HTMLElement>(MENU_ITEM)?.focus();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && event.currentTarget.open) {
          // Only the innermost: Escape in the Export menu folded into File leaves File open.
          event.stopPropagation();
          event.currentTarget.open = false;
          event.currentTarget.querySelector("summary")?.focus();
        } else if (menu && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
          event.preventDefault();
          moveFocus(event, event.key === "ArrowDown" ? 1 : -1);
        }
      }}
    >
      <summary
        data-testid={buttonTestId}
        title={title}
        aria-label={ariaLabel}
        aria-haspopup={menu ? "menu" : undefined}
      >
        {label}
        <ChevronDown aria-hidden="true" className="menu-chevron" />
      </summary>
      <div
        className="file-menu-items"
        role={menu ? "menu" : undefined}
        aria-label={menu ? (ariaLabel ?? label) : undefined}
      >
        {children}
      </div>
    </details>
  );
}

/** Moves the focus to the next (`step` 1) or previous (-1) menu item, round from the ends; opens the menu first. */
function moveFocus(event: KeyboardEvent<HTMLDetailsElement>, step: 1 | -1): void {
  const element = event.currentTarget;
  if (!element.open) {
    // onToggle then focuses the first item.
    element.open = true;
    return;
  }
  const items = [...element.querySelectorAll<HTMLElement>(MENU_ITEM)];
  const at = items.findIndex((item) => item === document.activeElement);
  const next = at < 0 ? (step === 1 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
  items[next]?.focus();
}
