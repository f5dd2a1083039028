// Where a section is in the preview: the prompt part its heading line starts (the core cuts the
// prompt before each line starting with `#`, prompt_parts.rs), found by the heading the core writes
// for it (render.rs: `### 2.1 Title`, or `### 2.1. Title (path)` keyed). Each ancestor's heading is
// looked for first and the section's after it, so that a body line that merely looks like the
// heading is not taken for it. A section the prompt does not show (under a summarized one) is at
// its nearest ancestor that it shows.
import type { HeadingStyle, Template } from "../platform";

/** The place of each section down to the one at `path` among its siblings, from 0; null when there is none. */
function placesOf(template: Template, path: string): number[] | null {
  const places: number[] = [];
  let siblings = template.sections;
  for (const key of path.split(".")) {
    const index = siblings.findIndex((section) => section.key === key);
    const section = siblings[index];
    if (section === undefined) return null;
    places.push(index);
    siblings = section.children;
  }
  return places;
}

/** How the heading line of the section numbered `numbers` (each from 1) starts: `### 2.1 `, or `### 2.1. ` keyed. */
export function headingStart(numbers: readonly number[], style: HeadingStyle): string {
  return `${"#".repeat(numbers.length + 1)} ${numbers.join(".")}${style === "keyed" ? "." : ""} `;
}

/**
 * The index of the part of `parts` (the preview of `template`) where the section at `path` starts,
 * or its nearest ancestor shown; null when neither is in the preview or no section has that path.
 */
export function sectionPartIndex(parts: readonly string[], template: Template, path: string): number | null {
  const places = placesOf(template, path);
  if (places === null) return null;
  let found: number | null = null;
  for (let depth = 1; depth <= places.length; depth++) {
    const start = headingStart(
      places.slice(0, depth).map((place) => place + 1),
      template.heading,
    );
    let index: number = found === null ? 0 : found + 1;
    while (index < parts.length && !(parts[index] ?? "").startsWith(start)) index++;
    if (index >= parts.length) return found;
    found = index;
  }
  return found;
}
