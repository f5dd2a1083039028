// A page's panes side by side with a separator between each pane of its own width and the flexible
// one: dragged by the pointer, or focused and moved by the arrow keys (Home, End: narrowest and
// widest), collapsed and restored by double-click, Enter or its button; and the hook that keeps a
// page's layout in localStorage. The arithmetic is paneLayout.ts's; panes.css lays them out.
//
// data-testids: pane-handle-<id> (the separator), pane-toggle-<id> (its hide/show button),
// pane-restore-<id> (the collapsed pane's rail button).
import { ChevronLeft, ChevronRight } from "lucide-react";
import {
  Children,
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from "react";
import {
  HANDLE_WIDTH,
  KEY_STEP,
  KEY_STEP_LARGE,
  layoutText,
  movedBy,
  parseLayout,
  resizedTo,
  shownSizes,
  sizeLimits,
  toggledCollapse,
  type PaneLayout,
  type PaneSpec,
  type SplitSpec,
} from "./paneLayout";
import "./panes.css";

/** A change of a layout, from the one it applies to (a drag applies many in a row). */
export type LayoutChange = (layout: PaneLayout) => PaneLayout;

/** `split`'s layout as kept in localStorage, and how to change it (each change is kept at once). */
export function useStoredPaneLayout(split: SplitSpec): [PaneLayout, (change: LayoutChange) => void] {
  const [layout, setLayout] = useState(() => parseLayout(split, readKept(split.storageKey)));
  useEffect(() => {
    keep(split.storageKey, layoutText(layout));
  }, [split.storageKey, layout]);
  return [layout, setLayout];
}

// localStorage can be missing or refuse (a full disk, a locked-down webview): the layout then lasts
// until the window closes.
function readKept(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function keep(key: string, text: string): void {
  try {
    window.localStorage.setItem(key, text);
  } catch {
    // Kept for this window only.
  }
}

/**
 * `children`, one element per pane in their order on the page (the split's panes before the flexible
 * one, the flexible one, the panes after it), laid out as `layout` says in the room the container has.
 */
export function SplitPanes({
  split,
  layout,
  onLayout,
  className,
  children,
}: {
  split: SplitSpec;
  layout: PaneLayout;
  onLayout: (change: LayoutChange) => void;
  className: string;
  children: ReactNode;
}) {
  const container = useRef<HTMLDivElement>(null);
  const room = useWidth(container);
  const shown = shownSizes(split, layout, room);
  const before = split.panes.filter((pane) => pane.side === "before");
  const after = split.panes.filter((pane) => pane.side === "after");
  const elements = Children.toArray(children);
  const panes = new Map(
    [...before, ...after].map((spec, index) => [spec.id, elements[index < before.length ? index : index + 1]]),
  );
  const flexible = elements[before.length];
  const columns = [
    ...before.flatMap((pane) => [`${String(shown[pane.id])}px`, `${String(HANDLE_WIDTH)}px`]),
    `minmax(${String(split.flexMin)}px, 1fr)`,
    ...after.flatMap((pane) => [`${String(HANDLE_WIDTH)}px`, `${String(shown[pane.id])}px`]),
  ].join(" ");
  const style = { "--split-columns": columns } as CSSProperties;

  const pane = (spec: PaneSpec) =>
    layout.collapsed[spec.id] === true ? (
      <CollapsedRail
        key={spec.id}
        pane={spec}
        onRestore={() => {
          onLayout((now) => toggledCollapse(now, spec.id));
        }}
      />
    ) : (
      // Keyed by the pane: it keeps its state while another pane collapses.
      <Fragment key={spec.id}>{panes.get(spec.id)}</Fragment>
    );
  const handle = (spec: PaneSpec) => (
    <PaneHandle
      key={`${spec.id}-handle`}
      split={split}
      pane={spec}
      layout={layout}
      size={shown[spec.id] ?? spec.initial}
      room={room}
      onLayout={onLayout}
    />
  );
  return (
    <div ref={container} className={`split-panes ${className}`} style={style}>
      {before.flatMap((spec) => [pane(spec), handle(spec)])}
      {flexible}
      {after.flatMap((spec) => [handle(spec), pane(spec)])}
    </div>
  );
}

/** The container's width, followed as the window changes; null until measured (or where nothing lays out). */
function useWidth(container: RefObject<HTMLDivElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = container.current;
    if (element === null) return;
    const measure = () => {
      const measured = element.getBoundingClientRect().width;
      setWidth(measured > 0 ? measured : null);
    };
    measure();
    if (typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [container]);
  return width;
}

/** A collapsed pane: a narrow rail whose button restores it. */
function CollapsedRail({ pane, onRestore }: { pane: PaneSpec; onRestore: () => void }) {
  const Icon = pane.side === "before" ? ChevronRight : ChevronLeft;
  return (
    <div className="pane-rail">
      <button
        type="button"
        className="pane-restore"
        data-testid={`pane-restore-${pane.id}`}
        aria-label={`Show the ${pane.name}`}
        title={`Show the ${pane.name}`}
        onClick={onRestore}
      >
        <Icon aria-hidden="true" size={16} />
      </button>
    </div>
  );
}

/** The separator of `pane`, with the button that hides or shows it. */
function PaneHandle({
  split,
  pane,
  layout,
  size,
  room,
  onLayout,
}: {
  split: SplitSpec;
  pane: PaneSpec;
  layout: PaneLayout;
  size: number;
  room: number | null;
  onLayout: (change: LayoutChange) => void;
}) {
  const collapsed = layout.collapsed[pane.id] === true;
  const { min, max } = sizeLimits(split, layout, pane.id, room);
  // Where a drag started and the layout then: each move applies to that, not to the last move's.
  const drag = useRef<{ x: number; from: PaneLayout } | null>(null);
  const [dragging, setDragging] = useState(false);
  const toggle = useCallback(() => {
    onLayout((now) => toggledCollapse(now, pane.id));
  }, [onLayout, pane.id]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Ctrl, Alt and Meta keep their shortcuts (Ctrl+Enter runs a comparison) wherever the focus is.
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    const change: LayoutChange | null =
      event.key === "ArrowLeft"
        ? (now) => movedBy(split, now, pane.id, -step, room)
        : event.key === "ArrowRight"
          ? (now) => movedBy(split, now, pane.id, step, room)
          : event.key === "Home"
            ? (now) => resizedTo(split, now, pane.id, min, room)
            : event.key === "End" && max !== null
              ? (now) => resizedTo(split, now, pane.id, max, room)
              : event.key === "Enter"
                ? (now) => toggledCollapse(now, pane.id)
                : null;
    if (change === null) return;
    event.preventDefault();
    onLayout(change);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, from: layout };
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const started = drag.current;
    if (started === null) return;
    const delta = event.clientX - started.x;
    onLayout(() => movedBy(split, started.from, pane.id, delta, room));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    drag.current = null;
    setDragging(false);
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };

  const hideOrShow = `${collapsed ? "Show" : "Hide"} the ${pane.name}`;
  const Toward = (pane.side === "before") === collapsed ? ChevronRight : ChevronLeft;
  return (
    <div className={dragging ? "pane-divider dragging" : "pane-divider"}>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize the ${pane.name}`}
        aria-valuenow={collapsed ? 0 : size}
        aria-valuemin={min}
        aria-valuemax={max ?? undefined}
        tabIndex={0}
        className="pane-handle"
        data-testid={`pane-handle-${pane.id}`}
        title={`Drag to resize the ${pane.name}; double-click or Enter to ${collapsed ? "show" : "hide"} it`}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={toggle}
      />
      <button
        type="button"
        className="pane-toggle"
        data-testid={`pane-toggle-${pane.id}`}
        aria-label={hideOrShow}
        aria-expanded={!collapsed}
        title={hideOrShow}
        onClick={toggle}
      >
        <Toward aria-hidden="true" size={12} />
      </button>
    </div>
  );
}
