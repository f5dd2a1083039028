// The providers dialog: the file the provider profiles are saved to, and each profile's fields
// (name, API, base URL, model, sampling and timeouts, and where its key comes from: an environment
// variable or the OS keychain, with whether it is set now), to edit, add and remove; Save sends them all and a refusal
// shows each problem at its field, Cancel lets the edits go. The fields live here as typed text
// (profileDrafts.ts) until Save; there is never a field for a key itself.
import { useState, type ReactNode } from "react";
import { ModalDialog } from "../shared/ModalDialog";
import type { ProblemView, ProfilesView, ProviderKind, ProviderProfile } from "../platform";
import { ProblemItems } from "../shared/ProblemItems";
import {
  draftOf,
  keySetNow,
  newDraft,
  placeProblems,
  pointerOf,
  profilesOf,
  type DraftField,
  type PlacedProblems,
  type ProfileDraft,
} from "./profileDrafts";
import type { Failure } from "../shared/failure";
import "./providers.css";

const KINDS: readonly { kind: ProviderKind; label: string }[] = [
  { kind: "openai", label: "OpenAI Chat Completions (OpenAI, Ollama, vLLM, llama.cpp, LiteLLM, OpenRouter)" },
  { kind: "openai-responses", label: "OpenAI Responses (tool search for deferred tools)" },
  { kind: "anthropic", label: "Anthropic Messages" },
];

export function ProvidersDialog({
  profiles,
  failure,
  onSave,
  onCancel,
}: {
  /** The profiles as last read (null: they could not be read, so nothing is saved over them). */
  profiles: ProfilesView | null;
  /** Why the last save was refused. */
  failure: Failure | null;
  onSave: (list: ProviderProfile[]) => void;
  onCancel: () => void;
}) {
  const [drafts, setDrafts] = useState<ProfileDraft[]>(() => (profiles?.profiles ?? []).map(draftOf));
  // Number fields that are not numbers are caught here and never sent; the backend's problems
  // arrive as `failure`. Either kind names its places by index, so a removal forgets them.
  const [typingProblems, setTypingProblems] = useState<ProblemView[]>([]);
  const [shownFailure, setShownFailure] = useState(true);
  const problems = typingProblems.length > 0 ? typingProblems : shownFailure ? (failure?.problems ?? []) : [];
  const placed = placeProblems(problems, drafts);

  const change = (index: number, fields: Partial<ProfileDraft>) => {
    setDrafts(drafts.map((draft, i) => (i === index ? { ...draft, ...fields } : draft)));
  };
  const save = () => {
    const made = profilesOf(drafts);
    setTypingProblems(made.ok ? [] : made.problems);
    setShownFailure(true);
    if (made.ok) onSave(made.profiles);
  };

  return (
    <ModalDialog
      role="dialog"
      titleId="providers-title"
      testId="providers-dialog"
      className="providers-dialog"
      onEscape={onCancel}
    >
      {(focusFirst) => (
        <>
          <h2 id="providers-title">Model providers</h2>
          <p className="providers-file">
            {profiles === null ? (
              "The provider profiles could not be read, so they cannot be saved from here."
            ) : profiles.path === null ? (
              "There is no home folder to save provider profiles in."
            ) : (
              <>
                Saved to <code data-testid="providers-path">{profiles.path}</code>
              </>
            )}
          </p>
          <p className="notice">
            Keys come from environment variables (or the OS keychain, filled by <code>unfold key set NAME</code>) and
            never go into the file or this window: each profile names where its key is.
          </p>
          {typingProblems.length === 0 && shownFailure && failure !== null && (
            <div className="error failure" role="alert" data-testid="providers-failure">
              <strong>{failure.title}</strong>
              <span>{failure.detail}</span>
            </div>
          )}
          {placed.elsewhere.length > 0 && (
            <ProblemItems
              problems={placed.elsewhere}
              whole="profiles"
              testId="providers-problems"
              className="error"
              label="Problems"
            />
          )}
          {drafts.length === 0 ? (
            <p className="notice">No profiles yet: add one to run a scenario with a real model.</p>
          ) : (
            <ul className="profile-list">
              {drafts.map((draft, index) => (
                <ProfileRow
                  // Rows are edited in place and only removed: the index is the row.
                  key={index}
                  draft={draft}
                  index={index}
                  placed={placed}
                  keySet={keySetNow(draft, profiles)}
                  onChange={(fields) => {
                    change(index, fields);
                  }}
                  onRemove={() => {
                    setDrafts(drafts.filter((_, i) => i !== index));
                    setTypingProblems([]);
                    setShownFailure(false);
                  }}
                />
              ))}
            </ul>
          )}
          <div className="dialog-actions">
            <button
              type="button"
              data-testid="add-profile"
              className="add-profile"
              onClick={() => {
                setDrafts([...drafts, newDraft(drafts)]);
              }}
            >
              Add a profile
            </button>
            <button
              type="button"
              ref={focusFirst}
              data-testid="save-profiles"
              disabled={profiles === null || profiles.path === null}
              onClick={save}
            >
              Save
            </button>
            <button type="button" data-testid="cancel-profiles" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}

function ProfileRow({
  draft,
  index,
  placed,
  keySet,
  onChange,
  onRemove,
}: {
  draft: ProfileDraft;
  index: number;
  placed: PlacedProblems;
  /** Whether its key is set now (null: not known until saved). */
  keySet: boolean | null;
  onChange: (fields: Partial<ProfileDraft>) => void;
  onRemove: () => void;
}) {
  const text = (
    field: DraftField,
    label: string,
    testId: string,
    rest: { placeholder?: string; note?: ReactNode; inputMode?: "decimal" | "numeric" } = {},
  ) => (
    <Field label={label} problems={placed.atField.get(pointerOf(index, field)) ?? []} field={field} note={rest.note}>
      <input
        type="text"
        data-testid={testId}
        value={draft[field]}
        placeholder={rest.placeholder}
        inputMode={rest.inputMode}
        spellCheck={false}
        onChange={(event) => {
          onChange({ [field]: event.target.value });
        }}
      />
    </Field>
  );
  const keyNote = keyStatus(draft, keySet);
  return (
    <li className="profile-row" data-testid="profile-row">
      <fieldset>
        <legend>{draft.name === "" ? "Unnamed profile" : draft.name}</legend>
        <div className="profile-fields">
          {text("name", "Name", "profile-name")}
          <Field label="API" problems={[]} field="kind">
            <select
              data-testid="profile-kind"
              value={draft.kind}
              onChange={(event) => {
                onChange({ kind: event.target.value as ProviderKind });
              }}
            >
              {KINDS.map(({ kind, label }) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {text("base_url", "Base URL", "profile-base-url", { placeholder: "https://api.openai.com/v1" })}
          {text("model", "Model", "profile-model", { placeholder: "qwen3, gpt-4.1-mini, claude-sonnet-4-5…" })}
          {text("temperature", "Temperature", "profile-temperature", {
            placeholder: "API default",
            inputMode: "decimal",
          })}
          {text("max_tokens", "Max tokens per answer", "profile-max-tokens", {
            placeholder: "default",
            inputMode: "numeric",
          })}
          {text("connect_timeout_ms", "Connect timeout (ms)", "profile-connect-timeout", {
            placeholder: "10000",
            inputMode: "numeric",
          })}
          {text("read_timeout_ms", "Silence timeout (ms)", "profile-read-timeout", {
            placeholder: "60000",
            inputMode: "numeric",
          })}
          {text("api_key_env", "Key from environment variable", "profile-key-env", {
            placeholder: "none",
            note: (
              <span className={keySet === false ? "key-status missing" : "key-status"} data-testid="profile-key-status">
                {keyNote}
              </span>
            ),
          })}
          <Field
            label="Key from the OS keychain"
            problems={placed.atField.get(pointerOf(index, "api_key_keychain")) ?? []}
            field="api_key_keychain"
          >
            <input
              type="checkbox"
              data-testid="profile-key-keychain"
              checked={draft.api_key_keychain}
              onChange={(event) => {
                onChange({ api_key_keychain: event.target.checked });
              }}
            />
          </Field>
          <label className="check profile-stream">
            <input
              type="checkbox"
              data-testid="profile-stream"
              checked={draft.stream}
              onChange={(event) => {
                onChange({ stream: event.target.checked });
              }}
            />{" "}
            Stream answers
          </label>
          <label
            className="check profile-dynamic-tools"
            title="Off for a harness that configures its tools once per conversation: a run asked for the dynamic adapter then runs the restart adapter, and its log says so."
          >
            <input
              type="checkbox"
              data-testid="profile-dynamic-tools"
              checked={draft.dynamic_tools}
              onChange={(event) => {
                onChange({ dynamic_tools: event.target.checked });
              }}
            />{" "}
            Takes new tools mid-conversation
          </label>
        </div>
        <button type="button" data-testid="remove-profile" className="remove-profile" onClick={onRemove}>
          Remove {draft.name === "" ? "this profile" : draft.name}
        </button>
      </fieldset>
    </li>
  );
}

/** Where a profile's key comes from and whether it is there now, in words. */
export function keyStatus(draft: ProfileDraft, keySet: boolean | null): string {
  const variable = draft.api_key_env.trim();
  if (draft.api_key_keychain) {
    if (keySet === null) return "Whether the keychain holds its key is checked once saved";
    return keySet
      ? "The keychain holds its key"
      : `The keychain holds no key for ${draft.name}: run unfold key set ${draft.name}`;
  }
  if (variable === "") return "No key is sent (Ollama, llama.cpp's server)";
  if (keySet === null) return "Whether it is set is checked once saved";
  return keySet ? `${variable} is set now` : `${variable} is not set now: a run would fail`;
}

/** A labelled field, with its problems under it. */
function Field({
  label,
  problems,
  field,
  note,
  children,
}: {
  label: string;
  problems: readonly string[];
  field: string;
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={problems.length > 0 ? "profile-field invalid" : "profile-field"} data-field={field}>
      <label>
        <span className="field-label">{label}</span>
        {children}
      </label>
      {note}
      {problems.map((message) => (
        <span key={message} className="field-problem" data-testid="profile-problem" data-field={field}>
          {message}
        </span>
      ))}
    </div>
  );
}
