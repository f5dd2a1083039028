// The providers dialog's profiles as typed, without React: every field as its text (a number may be
// left empty for the API's default, or not be a number yet), the profiles the texts make, a new
// profile's defaults, each problem placed at the field its JSON pointer names, and whether a key is
// set now. Keys are never among the fields: a profile names the environment variable that holds
// its key, or says the OS keychain holds it.
import type { ProblemView, ProviderKind, ProviderProfile } from "../platform";

/** A profile's fields as the dialog holds them. */
export interface ProfileDraft {
  name: string;
  kind: ProviderKind;
  base_url: string;
  model: string;
  /** Empty: the API's default. */
  temperature: string;
  /** Empty: the default (the API's; 1024 for Anthropic, which requires one). */
  max_tokens: string;
  stream: boolean;
  /** Empty: 10 000 ms. */
  connect_timeout_ms: string;
  /** Empty: 60 000 ms. */
  read_timeout_ms: string;
  /** Empty: no key from the environment (none is sent, unless the keychain holds it). */
  api_key_env: string;
  /** The OS keychain holds the key (`unfold key set NAME` puts it there). */
  api_key_keychain: boolean;
  /** The harness behind the API takes new tools mid-conversation (false: the restart adapter runs for the dynamic one). */
  dynamic_tools: boolean;
}

/** The fields typed as text. */
export type DraftField = Exclude<keyof ProfileDraft, "kind" | "stream" | "api_key_keychain" | "dynamic_tools">;

/** The fields a problem is shown at. */
const PLACED_FIELDS: ReadonlySet<string> = new Set<keyof ProfileDraft>([
  "name",
  "base_url",
  "model",
  "temperature",
  "max_tokens",
  "connect_timeout_ms",
  "read_timeout_ms",
  "api_key_env",
  "api_key_keychain",
  "dynamic_tools",
]);

/** The number fields: whether each takes a fraction (a temperature) or only whole numbers. */
const NUMBER_FIELDS = {
  temperature: "fraction",
  max_tokens: "whole",
  connect_timeout_ms: "whole",
  read_timeout_ms: "whole",
} as const;

/** Where a new profile points: a local OpenAI-compatible server (Ollama's port). */
export const LOCAL_BASE_URL = "http://127.0.0.1:11434/v1";

function text(value: number | string | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A profile's fields as text. */
export function draftOf(profile: ProviderProfile): ProfileDraft {
  return {
    name: profile.name,
    kind: profile.kind,
    base_url: profile.base_url,
    model: profile.model,
    temperature: text(profile.temperature),
    max_tokens: text(profile.max_tokens),
    stream: profile.stream ?? true,
    connect_timeout_ms: text(profile.connect_timeout_ms),
    read_timeout_ms: text(profile.read_timeout_ms),
    api_key_env: text(profile.api_key_env),
    api_key_keychain: profile.api_key_keychain ?? false,
    dynamic_tools: profile.dynamic_tools ?? true,
  };
}

/** A new profile for a local OpenAI-compatible server, named so that no profile of `drafts` has its name. */
export function newDraft(drafts: readonly ProfileDraft[]): ProfileDraft {
  const taken = new Set(drafts.map((draft) => draft.name));
  let name = "local";
  for (let n = 2; taken.has(name); n++) name = `local-${String(n)}`;
  return {
    name,
    kind: "openai",
    base_url: LOCAL_BASE_URL,
    model: "",
    temperature: "",
    max_tokens: "",
    stream: true,
    connect_timeout_ms: "",
    read_timeout_ms: "",
    api_key_env: "",
    api_key_keychain: false,
    dynamic_tools: true,
  };
}

/** Where a field of profile `index` is, as the backend's problems name it. */
export function pointerOf(index: number, field: keyof ProfileDraft): string {
  return `/profiles/${String(index)}/${field}`;
}

/**
 * The profiles the drafts make (empty fields left out, so the defaults apply), or the problems of
 * the number fields whose text is not a number, at their pointers: those never reach the backend.
 */
export function profilesOf(
  drafts: readonly ProfileDraft[],
): { ok: true; profiles: ProviderProfile[] } | { ok: false; problems: ProblemView[] } {
  const problems: ProblemView[] = [];
  const profiles = drafts.map((draft, index) => {
    const profile: ProviderProfile = {
      name: draft.name,
      kind: draft.kind,
      base_url: draft.base_url.trim(),
      model: draft.model.trim(),
      stream: draft.stream,
    };
    for (const [field, shape] of Object.entries(NUMBER_FIELDS) as [
      keyof typeof NUMBER_FIELDS,
      "fraction" | "whole",
    ][]) {
      const typed = draft[field].trim();
      if (typed === "") continue;
      const value = Number(typed);
      if (shape === "whole" ? !/^\d+$/.test(typed) : !Number.isFinite(value)) {
        const message =
          shape === "whole"
            ? "must be a whole number, or empty for the default"
            : "must be a number, or empty for the API's default";
        problems.push({ location: pointerOf(index, field), message });
      } else {
        profile[field] = value;
      }
    }
    const variable = draft.api_key_env.trim();
    if (variable !== "") profile.api_key_env = variable;
    if (draft.api_key_keychain) profile.api_key_keychain = true;
    if (!draft.dynamic_tools) profile.dynamic_tools = false;
    return profile;
  });
  return problems.length === 0 ? { ok: true, profiles } : { ok: false, problems };
}

/** Problems placed: the messages at each field (by `pointerOf`), and the rest, which name no field. */
export interface PlacedProblems {
  atField: Map<string, string[]>;
  elsewhere: ProblemView[];
}

/** Places each problem at the field of `drafts` its JSON pointer names; the others are listed apart. */
export function placeProblems(problems: readonly ProblemView[], drafts: readonly ProfileDraft[]): PlacedProblems {
  const placed: PlacedProblems = { atField: new Map(), elsewhere: [] };
  for (const problem of problems) {
    const match = /^\/profiles\/(\d+)\/([a-z_]+)$/.exec(problem.location);
    const index = Number(match?.[1]);
    const field = match?.[2];
    if (field === undefined || !PLACED_FIELDS.has(field) || index >= drafts.length) {
      placed.elsewhere.push(problem);
      continue;
    }
    const messages = placed.atField.get(problem.location) ?? [];
    placed.atField.set(problem.location, [...messages, problem.message]);
  }
  return placed;
}

/**
 * Whether the key of `draft` is set now, as the profiles last read say (the backend tells it per
 * profile, never the key): a keychain entry is the profile's name, a variable any profile naming it;
 * null when the profiles read do not tell (a new name or variable), so it is checked once saved.
 */
export function keySetNow(
  draft: Pick<ProfileDraft, "name" | "api_key_env" | "api_key_keychain">,
  saved: { profiles: readonly ProviderProfile[]; keys_set: readonly boolean[] } | null,
): boolean | null {
  const variable = draft.api_key_env.trim();
  const index =
    saved?.profiles.findIndex((profile) =>
      draft.api_key_keychain
        ? profile.api_key_keychain === true && profile.name === draft.name
        : profile.api_key_env === variable,
    ) ?? -1;
  return index < 0 ? null : (saved?.keys_set[index] ?? null);
}
