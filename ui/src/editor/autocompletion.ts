// CodeMirror's autocompletion, as the chunk `parameterCompletion.ts` loads apart from the first
// screen's script (the build names the chunk after this file).
export { autocompletion } from "@codemirror/autocomplete";
