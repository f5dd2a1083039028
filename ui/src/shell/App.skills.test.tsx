// Renders <App> in happy-dom over the fake platform, for Agent Skills in the app: "Open skills
// folder…" of the File menu (and the start page) opens a skills folder as a new, untitled and
// modified template whose tree shows the skills, said in a toast, and exported back to that folder
// once the user confirms; a cancelled dialog opens nothing; a SKILL.md that cannot be read is shown
// with its file and line, and the open template stays.
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import type { Template } from "../platform";
import { exampleTemplate, FakePlatform } from "../testing/fakePlatform";
import { mountEachTest } from "../testing/testRoot";
import { byTestId, click, settle } from "../testing/dom";
import { renderApp } from "../testing/editPage";

let container: HTMLDivElement;
let root: Root;

mountEachTest((mounted) => {
  ({ container, root } = mounted);
});

const FOLDER = "/home/u/skills/anthropic";

/**
 * Two skills as the backend imports them: a summarized section each, its description the summary,
 * and after the one that names a file a summarized section holding it (`x-skill-files`), beside
 * the skill and not under it, so reading the skill shows its body alone.
 */
function skillsTemplate(): Template {
  const skill = (key: string, description: string) => ({
    key,
    title: key,
    template: `# ${key}\n\nThe body.`,
    summary: description,
    visibility: "summary" as const,
    tools: [],
    children: [],
  });
  const files = {
    ...skill("internal-comms-files", "The files of the internal-comms skill, each read on its own."),
    title: "internal-comms files",
    children: [
      { ...skill("examples-3p-updates-md", "The file examples/3p-updates.md"), title: "examples/3p-updates.md" },
    ],
  };
  // The field that names the skill is an `x-` field, which the bindings' type does not list.
  Object.assign(files, { "x-skill-files": { skill: "internal-comms" } });
  return {
    ...exampleTemplate(),
    key: "anthropic",
    name: "anthropic",
    params: {},
    tools: [],
    sections: [
      skill("internal-comms", "Write internal communications."),
      files,
      skill("brand-guidelines", "Apply the brand's colors and type."),
    ],
  };
}

/** The tree's rows: a skill, then its files' section beside it with the file under it. */
const SKILL_ROWS = [
  "internal-comms",
  "internal-comms-files",
  "internal-comms-files.examples-3p-updates-md",
  "brand-guidelines",
];

const rows = () =>
  [...container.querySelectorAll<HTMLElement>('[data-testid="section-row"]')].map((row) => row.dataset.path);

describe("App: a skills folder opened as a template", () => {
  it("opens the chosen folder from the File menu as an untitled, modified template showing its skills", async () => {
    const platform = new FakePlatform();
    platform.skillsFolders.set(FOLDER, skillsTemplate());
    await renderApp(root, platform);
    // happy-dom's window is 1024 px wide: the file actions are folded into the File menu.
    expect(byTestId("file-menu").contains(byTestId("open-skills-button"))).toBe(true);
    expect(byTestId("open-skills-button").textContent).toBe("Open skills folder…");

    platform.chosenPath = null;
    await click(byTestId("open-skills-button"));
    expect(platform.argsOf("chooseFile")).toEqual([["open_skills", null]]);
    expect(platform.callNames()).not.toContain("openSkillsFolder");

    platform.chosenPath = FOLDER;
    await click(byTestId("open-skills-button"));
    await settle();
    expect(platform.argsOf("openSkillsFolder")).toEqual([[FOLDER]]);
    expect(rows()).toEqual(SKILL_ROWS);
    expect(byTestId("template-path").textContent).toBe("Untitled");
    expect(byTestId("save-button").hasAttribute("disabled")).toBe(false);
    expect(byTestId("open-notice").textContent).toContain(`Opened 2 skills from ${FOLDER} as a new template`);

    // Exported, it starts at the folder it came from: saved back there once the user confirms.
    platform.foldersWithFiles.add(FOLDER);
    await click(byTestId("export-skills"));
    expect(platform.argsOf("chooseFile").at(-1)).toEqual(["skills_folder", FOLDER]);
    await click(byTestId("skills-overwrite"));
    expect(platform.argsOf("exportSkills")).toEqual([
      [platform.id, FOLDER, false],
      [platform.id, FOLDER, true],
    ]);
    expect(platform.exportedSkills.get(FOLDER)).toEqual(["internal-comms", "brand-guidelines"]);
  });

  it("shows a SKILL.md that cannot be read at its file and line, and keeps the open template", async () => {
    const platform = new FakePlatform();
    const message = `${FOLDER}/brand-guidelines/SKILL.md: line 4, column 1: the front matter is not YAML`;
    platform.skillsFolders.set(FOLDER, {
      code: "invalid_template",
      message,
      problems: [{ location: "line 4, column 1", message: "the front matter is not YAML" }],
    });
    platform.chosenPath = FOLDER;
    await renderApp(root, platform);
    await click(byTestId("open-skills-button"));
    await settle();
    expect(byTestId("error").textContent).toContain("This skills folder cannot be opened");
    expect(byTestId("error-detail").textContent).toBe(message);
    expect(byTestId("template-path").textContent).toBe("/t/task.unfold.json");
    expect(rows()).toContain("context");
  });

  it("opens one from the start page too", async () => {
    const platform = new FakePlatform();
    platform.initialTemplatePath = () => Promise.resolve({ ok: true, value: null });
    platform.skillsFolders.set(FOLDER, skillsTemplate());
    platform.chosenPath = FOLDER;
    await renderApp(root, platform);
    await click(byTestId("start-open-skills"));
    await settle();
    expect(rows()).toEqual(SKILL_ROWS);
  });
});
