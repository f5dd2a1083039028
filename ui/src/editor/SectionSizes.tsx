// The selected section's own size each way it can be shown, beside its visibility: what it costs in
// full, what its summary costs instead, what its tools add while it is in full. The figures are
// the backend's (the template's economics), so they lag the typing by a moment.
import type { SectionSize } from "../platform";
import { sectionSizeParts } from "./economics";
import "./sizes.css";

export function SectionSizes({ size }: { size: SectionSize | undefined }) {
  if (size === undefined) return null;
  const parts = sectionSizeParts(size);
  return (
    <dl className="section-sizes" data-testid="section-sizes" aria-label="Its size in the prompt">
      <div>
        <dt>In full</dt>
        <dd data-testid="size-full">{parts.full}</dd>
      </div>
      <div>
        <dt>Summarized</dt>
        <dd data-testid="size-summary">{parts.summary ?? "no summary"}</dd>
      </div>
      <div>
        <dt>Its tools</dt>
        <dd data-testid="size-tools">{parts.tools}</dd>
      </div>
    </dl>
  );
}
