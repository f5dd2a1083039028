// Renders <App> in happy-dom over the fake platform, for what a DOM can tell of the layout: the
// workspace's notices (recovered work, a failed open) sit right under the header, before every
// page's content, and the recovery offer's actions are buttons; the header's path carries the whole
// path as its title and is cut short with an ellipsis; the file actions (the Export menu too) fold
// into a File menu in a narrow window. (Heights and widths in the real app are the end-to-end test's.)
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEachTest } from "../testing/testRoot";
import { renderApp } from "../testing/editPage";
import { FakePlatform } from "../testing/fakePlatform";
import type { RecoveredWork } from "../platform";
import { byTestId, click, settle } from "../testing/dom";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

/** Whether `later` comes after `earlier` in document order (and is not inside it). */
function follows(earlier: Node, later: Node): boolean {
  const position = earlier.compareDocumentPosition(later);
  return (position & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 && (position & Node.DOCUMENT_POSITION_CONTAINED_BY) === 0;
}

const TEMPLATE_WORK: RecoveredWork = {
  id: "/t/task.unfold.json",
  kind: "template",
  path: "/t/task.unfold.json",
  saved_at_ms: 1000,
};
const SCENARIO_WORK: RecoveredWork = {
  id: "/t/a.scenario.json",
  kind: "scenario",
  path: "/t/a.scenario.json",
  saved_at_ms: 2000,
};

function recovering(platform = new FakePlatform()): FakePlatform {
  platform.recovered = [TEMPLATE_WORK, SCENARIO_WORK];
  return platform;
}

/** The notices region: the header's next sibling, holding the recovery offer. */
function noticesUnderHeader(): HTMLElement {
  const header = byTestId("app-header");
  const notices = byTestId("workspace-notices");
  expect(header.nextElementSibling).toBe(notices);
  expect(notices.contains(byTestId("recovery-offer"))).toBe(true);
  return notices;
}

describe("App: the workspace's notices under the header", () => {
  it("offers recovered work right under the header, before the editor's and the compare view's content", async () => {
    await renderApp(root, recovering());
    let notices = noticesUnderHeader();
    expect(follows(notices, byTestId("section-tree"))).toBe(true);
    expect(follows(notices, byTestId("preview-markdown"))).toBe(true);

    await click(byTestId("page-compare"));
    notices = noticesUnderHeader();
    expect(follows(notices, byTestId("compare-view"))).toBe(true);

    await click(byTestId("page-history"));
    notices = noticesUnderHeader();
    expect(follows(notices, byTestId("history-view"))).toBe(true);
  });

  it("offers recovered work under the header of the start page and of the run history without a template", async () => {
    const platform = recovering();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    await renderApp(root, platform);
    let notices = noticesUnderHeader();
    expect(follows(notices, byTestId("start-page"))).toBe(true);

    await click(byTestId("page-history"));
    notices = noticesUnderHeader();
    expect(follows(notices, byTestId("history-view"))).toBe(true);
  });

  it("gives each recovered document Restore and Discard buttons named after it, and Later puts the offer away", async () => {
    const platform = recovering();
    await renderApp(root, platform);
    const item = byTestId("recovered-item");
    expect(item.getAttribute("data-path")).toBe("/t/task.unfold.json");
    const restore = byTestId("restore-recovered", item);
    const discard = byTestId("discard-recovered", item);
    for (const [button, name] of [
      [restore, "Restore task.unfold.json"],
      [discard, "Discard task.unfold.json"],
    ] as const) {
      expect(button.tagName).toBe("BUTTON");
      expect((button as HTMLButtonElement).disabled).toBe(false);
      expect(button.getAttribute("aria-label")).toBe(name);
      button.focus();
      expect(document.activeElement).toBe(button);
    }
    // The path of each document, whole in its title.
    expect(byTestId("recovery-offer").querySelector('[title="/t/a.scenario.json"]')).not.toBeNull();

    const later = byTestId("recovery-later");
    expect(later.tagName).toBe("BUTTON");
    await click(later);
    expect(container.querySelector('[data-testid="recovery-offer"]')).toBeNull();
    expect(container.querySelector('[data-testid="workspace-notices"]')).toBeNull();
    expect(platform.callNames()).not.toContain("discardRecovered");
    expect(byTestId("section-tree")).toBeTruthy();
  });

  it("shows a failed open under the header too, before the editor's content", async () => {
    const platform = new FakePlatform();
    await renderApp(root, platform);
    await act(async () => {
      platform.drop(["/t/missing.unfold.json"]);
      await Promise.resolve();
    });
    await settle();
    const notices = byTestId("workspace-notices");
    expect(byTestId("app-header").nextElementSibling).toBe(notices);
    expect(byTestId("error-path", notices).textContent).toBe("/t/missing.unfold.json");
    expect(follows(notices, byTestId("section-tree"))).toBe(true);
  });
});

describe("App: the header's path", () => {
  it("carries the whole path as its title, cut short with an ellipsis, the file name apart", async () => {
    const platform = new FakePlatform("/home/someone/a/long/folder/of/templates/task.unfold.json");
    await renderApp(root, platform);
    const path = byTestId("template-path", byTestId("app-header"));
    expect(path.textContent).toBe("/home/someone/a/long/folder/of/templates/task.unfold.json");
    expect(path.getAttribute("title")).toBe("/home/someone/a/long/folder/of/templates/task.unfold.json");
    expect(path.classList.contains("ellipsis")).toBe(true);
    const folder = path.querySelector(".file-path-folder");
    const name = path.querySelector(".file-path-name");
    expect(folder?.textContent).toBe("/home/someone/a/long/folder/of/templates/");
    expect(name?.textContent).toBe("task.unfold.json");
    expect(folder?.classList.contains("ellipsis")).toBe(true);
    expect(name?.classList.contains("ellipsis")).toBe(true);

    await click(byTestId("page-history"));
    await click(byTestId("page-edit"));
    await click(byTestId("new-button"));
    const untitled = byTestId("template-path");
    expect(untitled.textContent).toBe("Untitled");
    expect(untitled.hasAttribute("title")).toBe(false);
  });
});

/**
 * A window `width` pixels wide, as `matchMedia` answers `(max-width: …px)` (any other query does
 * not match); `resize` changes it and tells the lists whose answer changed, as a real window does.
 */
type WidthListener = (event: { type: string; matches: boolean }) => void;

class FakeWidth {
  private readonly lists: { matches: () => boolean; listeners: Set<WidthListener> }[] = [];

  constructor(private width: number) {
    vi.stubGlobal("matchMedia", (query: string) => {
      const max = /max-width:\s*(\d+)px/.exec(query);
      const list = {
        matches: () => (max === null ? false : this.width <= Number(max[1])),
        listeners: new Set<WidthListener>(),
      };
      this.lists.push(list);
      return {
        media: query,
        get matches() {
          return list.matches();
        },
        onchange: null,
        addEventListener: (_type: string, listener: WidthListener) => list.listeners.add(listener),
        removeEventListener: (_type: string, listener: WidthListener) => list.listeners.delete(listener),
        addListener: (listener: WidthListener) => list.listeners.add(listener),
        removeListener: (listener: WidthListener) => list.listeners.delete(listener),
        dispatchEvent: () => true,
      } as unknown as MediaQueryList;
    });
  }

  async resize(width: number): Promise<void> {
    await act(async () => {
      const before = this.lists.map((list) => list.matches());
      this.width = width;
      this.lists.forEach((list, i) => {
        const matches = list.matches();
        if (matches !== before[i]) for (const listener of list.listeners) listener({ type: "change", matches });
      });
      await Promise.resolve();
    });
  }

  restore(): void {
    vi.unstubAllGlobals();
  }
}

describe("App: the file actions in a narrow window", () => {
  let width: FakeWidth;
  beforeEach(() => {
    width = new FakeWidth(1280);
  });
  afterEach(() => {
    width.restore();
  });

  it("fold into a File menu below a fixed width, and back", async () => {
    const platform = new FakePlatform();
    platform.recent = [{ path: "/t/other.unfold.json", exists: true }];
    await renderApp(root, platform);
    expect(container.querySelector('[data-testid="file-menu"]')).toBeNull();
    expect(byTestId("new-button").closest("details")).toBeNull();
    // "Open skills folder…" waits in the menu of the chevron beside Open…: no room for a button.
    expect(byTestId("open-menu").contains(byTestId("open-skills-button"))).toBe(true);
    expect(byTestId("open-menu-button").getAttribute("aria-label")).toBe("More ways to open");

    await width.resize(1000);
    const menu = byTestId("file-menu", byTestId("app-header"));
    expect(menu.tagName).toBe("DETAILS");
    expect(byTestId("file-menu-button", menu).textContent).toBe("File");
    for (const id of [
      "new-button",
      "open-button",
      "open-skills-button",
      "save-as-button",
      "export-menu",
      "recent-menu",
    ]) {
      expect(menu.contains(byTestId(id))).toBe(true);
    }
    // The shortcut help stays beside it, one key away.
    expect(menu.contains(byTestId("help-button"))).toBe(false);

    await width.resize(1280);
    expect(container.querySelector('[data-testid="file-menu"]')).toBeNull();
  });

  it("closes the File menu once an action is picked, and with Escape (focus back on File)", async () => {
    await width.resize(1000);
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const menu = byTestId("file-menu") as HTMLDetailsElement;
    menu.open = true;
    await click(byTestId("new-button"));
    expect(platform.callNames()).toContain("newDocument");
    expect((byTestId("file-menu") as HTMLDetailsElement).open).toBe(false);

    const again = byTestId("file-menu") as HTMLDetailsElement;
    again.open = true;
    await act(async () => {
      byTestId("open-button").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      await Promise.resolve();
    });
    expect(again.open).toBe(false);
    expect(document.activeElement).toBe(byTestId("file-menu-button"));
  });

  it("closes only the Export menu folded into File with Escape, and both once an export is picked", async () => {
    await width.resize(1000);
    const platform = new FakePlatform();
    await renderApp(root, platform);
    const file = byTestId("file-menu") as HTMLDetailsElement;
    const exports = byTestId("export-menu") as HTMLDetailsElement;
    file.open = true;
    exports.open = true;
    await act(async () => {
      byTestId("export-langfuse").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      await Promise.resolve();
    });
    expect(exports.open).toBe(false);
    expect(file.open).toBe(true);
    expect(document.activeElement).toBe(byTestId("export-menu-button"));

    exports.open = true;
    await click(byTestId("export-promptfoo"));
    expect(exports.open).toBe(false);
    expect(file.open).toBe(false);
    // The dialog is outside the menus, so it shows though they are closed.
    expect(byTestId("export-dialog").closest("details")).toBeNull();
  });
});
