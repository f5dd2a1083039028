// A modal dialog over the page: a backdrop, the dialog's role and label, Escape to dismiss, and
// focus moved to the element the dialog names first (its main button, or a field), so the keyboard
// answers.
import { useEffect, useRef, type ReactNode, type RefObject } from "react";

export function ModalDialog<First extends HTMLElement = HTMLButtonElement>({
  role,
  titleId,
  testId,
  className,
  onEscape,
  children,
}: {
  role: "dialog" | "alertdialog";
  /** The id of the heading that names the dialog. */
  titleId: string;
  testId: string;
  className?: string;
  onEscape: () => void;
  /** The dialog's content; it receives the ref to give the element focused first. */
  children: (focusFirst: RefObject<First | null>) => ReactNode;
}) {
  const first = useRef<First>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);
  return (
    <div className="dialog-backdrop">
      <div
        className={className === undefined ? "dialog" : `dialog ${className}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key === "Escape") onEscape();
        }}
      >
        {children(first)}
      </div>
    </div>
  );
}
