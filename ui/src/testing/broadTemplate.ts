// Test-only: a template of thousands of sections, for the tests that a big tree stays usable (the
// tree's window of rows, its filter, the preview's place of a section).
import type { Section, Template } from "../platform";
import { exampleTemplate } from "./fakePlatform";

/**
 * A template of `count` sections `s0`, `s1`, … titled "Section 0", … with the body "Body of
 * section 0", …: ten at the top and ten under each section before them, breadth first (`s10` to
 * `s19` under `s0`, `s20` to `s29` under `s1`, …).
 */
export function broadTemplate(count: number): Template {
  const sections: Section[] = [];
  const template = { ...exampleTemplate(), sections: [] as Section[] };
  for (let i = 0; i < count; i++) {
    const section: Section = {
      key: `s${String(i)}`,
      title: `Section ${String(i)}`,
      template: `Body of section ${String(i)}`,
      visibility: "full",
      tools: [],
      children: [],
    };
    sections.push(section);
    if (i < 10) template.sections.push(section);
    else sections[Math.floor(i / 10) - 1]?.children.push(section);
  }
  return template;
}
