// Test-only: the Compare page's stores over the fake backend, wired as the window wires them
// (shell/workspace.ts's compareStores) on the fake's open template; what Run's checks read of them;
// and the page drawn over them, with the toasts the app gives it: for the tests of the comparison,
// the scenario and the profiles.
import type { ComparisonContext } from "../compare/store";
import type { AskUnsaved } from "../scenario/store";
import { ToastProvider } from "../shared/ToastRegion";
import { ComparePage } from "../shell/pages";
import { compareStores, type CompareStores } from "../shell/workspace";
import type { FakePlatform } from "./fakePlatform";

export type { CompareStores };

/**
 * The Compare page's stores on `platform`'s open template; `ask` answers the unsaved-changes
 * question, `sourcesAllowed` hears of sources allowed before a run.
 */
export function openComparePage(
  platform: FakePlatform,
  ask: AskUnsaved = () => Promise.resolve("discard"),
  sourcesAllowed?: () => void,
): CompareStores {
  return compareStores(
    platform,
    () => ({ id: platform.id, path: platform.currentPath, dirty: platform.view().dirty, template: platform.template }),
    ask,
    sourcesAllowed,
  );
}

/** The comparison's state with the open scenario and the profiles read: what Run's checks read. */
export function comparisonContext({ comparison, scenario, providers }: CompareStores): ComparisonContext {
  return { ...comparison.getState(), scenario: scenario.getState().scenario, profiles: providers.getState().profiles };
}

/** The Compare page over `stores`, on `platform`'s template, listing no other problems. */
export function ComparePageOf({
  stores,
  platform,
  onOpenRun,
  onForked,
}: {
  stores: CompareStores;
  platform: FakePlatform;
  /** Hears of a kept run to open on the History's timeline. */
  onOpenRun?: (id: number) => void;
  /** Hears of a fork that ran: its runs' ids. */
  onForked?: (kept: readonly number[]) => void;
}) {
  return (
    <ToastProvider>
      <ComparePage
        stores={stores}
        template={platform.template}
        problems={[]}
        onOpenRun={onOpenRun}
        onForked={onForked}
      />
    </ToastProvider>
  );
}
