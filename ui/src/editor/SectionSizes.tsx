// The selected section's own size each way it can be shown, beside its visibility: what it costs in
// full, what its summary costs instead, what its tools add while it is in full. The figures are
// the backend's (the template's economics), so they lag the typing by a moment. Until the first
// figures are read the row is there with dashes: the tools under it do not jump down when they
// come (a click aimed at a tool would land on something else).
import type { SectionSize } from "../platform";
import { sectionSizeParts } from "./economics";
import "./sizes.css";

/** What each figure says while the template's economics are being read. */
const PENDING = "…";

export function SectionSizes({ size }: { size: SectionSize | undefined }) {
  const parts = size === undefined ? undefined : sectionSizeParts(size);
  return (
    <dl
      className="section-sizes"
      data-testid="section-sizes"
      aria-label="Its size in the prompt"
      aria-busy={parts === undefined}
    >
      <div>
        <dt>In full</dt>
        <dd data-testid="size-full">{parts?.full ?? PENDING}</dd>
      </div>
      <div>
        <dt>Summarized</dt>
        <dd data-testid="size-summary">{parts === undefined ? PENDING : (parts.summary ?? "no summary")}</dd>
      </div>
      <div>
        <dt>Its tools</dt>
        <dd data-testid="size-tools">{parts?.tools ?? PENDING}</dd>
      </div>
    </dl>
  );
}
