// The switch between the window's pages at the toolbar's end: Edit, Compare, History and Suites
// with a template open; the start page, History and Suites without one.
import type { Page } from "./workspace";

const PAGE_NAMES: Record<Page, string> = {
  edit: "Edit",
  compare: "Compare",
  history: "History",
  suites: "Suites",
  hosts: "Hosts",
};

export function PageSwitch({
  pages,
  page,
  onPage,
  names = {},
}: {
  pages: readonly Page[];
  page: Page;
  onPage: (page: Page) => void;
  /** Names in place of the usual ones (the start page is "edit" when no template is open). */
  names?: Partial<Record<Page, string>>;
}) {
  return (
    <div className="page-switch" role="tablist" aria-label="View">
      {pages.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          data-testid={`page-${name}`}
          aria-selected={page === name}
          onClick={() => {
            onPage(name);
          }}
        >
          {names[name] ?? PAGE_NAMES[name]}
        </button>
      ))}
    </div>
  );
}
