// The fake backend's imitation of the editor's calls, held to the real backend's answers that a
// Rust test recorded (fixtures/backend.recordings.json): a call the recordings do not hold is
// answered by the imitation, so it must give the recorded answers where they overlap.
import { describe, expect, it } from "vitest";
import type { ProviderProfile, Scenario, TemplateEdit, ToolOwner } from "../platform";
import { imitatedProfilesRefusal, problemsOf } from "./fakeCompare";
import { checkToolIn, editRefusal, importToolsFrom, previewOf } from "./fakePlatform";
import { recordedCalls, recordedTemplate } from "./recordings";

const calls = recordedCalls().map((call) => [`${call.command} ${JSON.stringify(call.args)}`, call] as const);

describe("the fake backend's imitation gives the recorded answers", () => {
  it("holds a call of every recorded command", () => {
    expect(new Set(calls.map(([, call]) => call.command))).toEqual(
      new Set(["previewDocument", "importTools", "checkTool", "applyEdit", "editScenario", "saveProviderProfiles"]),
    );
  });

  it.each(calls)("%s", (_, call) => {
    const template = recordedTemplate();
    switch (call.command) {
      case "previewDocument": {
        if (!call.answer.ok) throw new Error("a recorded preview failed");
        const shown = call.answer.value as { prompt: { parts: string[] }; tools: { function: { name: string } }[] };
        const names = shown.tools.map((tool) => tool.function.name);
        expect(previewOf(template, call.args.expand, call.args.expand_all)).toEqual({
          parts: shown.prompt.parts,
          tools: names,
        });
        break;
      }
      case "importTools":
        expect(importToolsFrom(template, call.args.text)).toEqual(call.answer);
        break;
      case "checkTool": {
        const { owner, index, text } = call.args;
        expect(checkToolIn(template, owner as ToolOwner, index, text)).toEqual(call.answer);
        break;
      }
      case "applyEdit": {
        const refusal = editRefusal(template, call.args.edit as TemplateEdit);
        expect(refusal === null ? { ok: true } : { ok: false, error: refusal }).toEqual(
          call.answer.ok ? { ok: true } : call.answer,
        );
        break;
      }
      case "editScenario":
        expect({
          ok: true,
          value: { problems: problemsOf(call.args.scenario as Scenario, template), warnings: [] },
        }).toEqual(call.answer);
        break;
      case "saveProviderProfiles": {
        const refusal = imitatedProfilesRefusal(call.args.profiles as ProviderProfile[]);
        expect(refusal === null ? { ok: true } : { ok: false, error: refusal }).toEqual(
          call.answer.ok ? { ok: true } : call.answer,
        );
        break;
      }
    }
  });
});
