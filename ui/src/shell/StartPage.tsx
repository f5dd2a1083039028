// What the window shows with no template open: what Unfold is, the built-in examples with their
// scenarios (one click opens an example's comparison, run, its verdict first), a new or existing
// template, and the recent files.
import { useEffect } from "react";
import type { ExampleView, RecentFile } from "../platform";
import { RecentList } from "./FileMenu";
import type { WorkspaceStore } from "./workspace";

/** A scenario's name without its template's prefix ("coding-agent: fix one…" → "fix one…"). */
function scenarioTitle(name: string): string {
  return name.replace(/^[\w-]+: /, "");
}

export function StartPage({
  workspace,
  recent,
  examples,
}: {
  workspace: WorkspaceStore;
  recent: RecentFile[];
  examples: ExampleView[];
}) {
  useEffect(() => {
    void workspace.readExamples();
  }, [workspace]);
  return (
    <section className="start-page" data-testid="start-page" aria-label="Start">
      <div className="start-intro">
        <h1>Unfold</h1>
        <p>
          Write prompt templates that show a summary first and the rest when the model asks for it, then compare how
          agents get their new tools: which way wins, by how many tokens and how much money, and why.
        </p>
        <div className="start-actions">
          <button type="button" data-testid="start-new" onClick={() => void workspace.newDocument()}>
            New template
          </button>
          <button type="button" data-testid="start-open" onClick={() => void workspace.openChosen()}>
            Open a template…
          </button>
          <button type="button" data-testid="start-open-skills" onClick={() => void workspace.openSkillsChosen()}>
            Open a skills folder…
          </button>
          <span className="notice">or drop a template file on the window</span>
        </div>
      </div>
      {examples.length > 0 && (
        <>
          <h2>Examples: open one and its comparison runs</h2>
          <ul className="example-list" data-testid="example-list">
            {examples.map((example) => (
              <ExampleCard key={example.template} workspace={workspace} example={example} />
            ))}
          </ul>
        </>
      )}
      {recent.length > 0 && (
        <>
          <h2>Recent files</h2>
          <RecentList workspace={workspace} recent={recent} />
        </>
      )}
    </section>
  );
}

function ExampleCard({ workspace, example }: { workspace: WorkspaceStore; example: ExampleView }) {
  return (
    <li className="example-card" data-testid="example" data-template={example.template}>
      <h3>{example.name}</h3>
      <p>{example.about}</p>
      <ul className="example-scenarios">
        {example.scenarios.map((scenario) => (
          <li key={scenario.file}>
            <button
              type="button"
              data-testid="open-example-comparison"
              data-scenario={scenario.file}
              title={`Open ${example.template} and run ${scenario.file} under every adapter`}
              onClick={() => void workspace.openExample(example.template, scenario.file)}
            >
              {scenarioTitle(scenario.name)}
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="link-button"
        data-testid="open-example"
        onClick={() => void workspace.openExample(example.template)}
      >
        Open the template only
      </button>
    </li>
  );
}
