// The completion of `${` with the template's parameters in a CodeField. CodeMirror's autocompletion
// brings its language package and Lezer with it, 65 KB that no start needs: it is a chunk of its
// own (`completionModule`), loaded once the first screen is drawn or when a field with parameters
// is focused, and fields already made take it up then.
import type { CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import type { Extension } from "@codemirror/state";
import { DeferredModule } from "../shared/DeferredModule";

export const completionModule = new DeferredModule(() => import("./autocompletion"));

/**
 * Offers the template's parameters while a placeholder is typed: after `${`, the names that start
 * with what follows it, each completed to `${name}`.
 */
export function parameterCompletions(params: readonly string[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const typed = context.matchBefore(/\$\{[A-Za-z0-9_]*$/);
    if (typed === null) return null;
    const after = context.state.sliceDoc(context.pos, context.pos + 1);
    return {
      from: typed.from,
      options: params.map((name) => ({
        label: `\${${name}}`,
        apply: after === "}" ? `\${${name}` : `\${${name}}`,
        type: "variable",
      })),
      validFor: /^\$\{[A-Za-z0-9_]*$/,
    };
  };
}

/** The completion of `params`, once CodeMirror's autocompletion is loaded; nothing before. */
export function parameterCompletion(params: readonly string[]): Extension {
  const loaded = completionModule.loadedModule();
  if (loaded === null) return [];
  return loaded.autocompletion({ override: [parameterCompletions(params)], icons: false });
}
