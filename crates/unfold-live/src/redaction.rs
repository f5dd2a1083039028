//! The secrets of a live run — the API key, the password in the base URL — and what keeps them in: their redaction in text, in
//! JSON (every string and key, as decoded), in an answer as it came over the wire, in what a
//! stream shows as it arrives; and the check a file of a live run passes before it is written.
//!
//! A secret is found in every form it takes on the way out: as it is; JSON-escaped (`\u002d`,
//! `\/`), behind up to eight backslashes (JSON in JSON), so an answer's text inside a
//! cassette's JSON is found too; percent-encoded (`%2D`, `%252D`); and inside base64 at any of its
//! three alignments (a server that echoes a request's headers echoes an HTTP Basic credential so).
//! One regex matches every form of every secret at once, in linear time (the `regex` crate, which
//! never backtracks, rather than a search written here for each form). A secret split across two
//! pieces of a stream is whole only once they are joined: answers are scrubbed once assembled, and
//! `Secrets::redact_call` records an answer whose pieces still hold it as the answer it decodes to.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use base64::Engine;
use regex::Regex;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use unfold_documents::error::{pointer_segment, Error, Result};
use unfold_engine::provider::ModelResponse;

use super::{ApiKey, Framing, ProviderKind, ProviderProfile, RecordedCall, WireAnswer};

/// The most backslashes before an escape that is still matched: JSON inside JSON, eight deep.
const MAX_ESCAPE_DEPTH: usize = 8;
/// The most times a `%` is itself percent-encoded (`%252D`) before a byte that is still matched.
const MAX_PERCENT_DEPTH: usize = 3;
/// Base64 runs shorter than this are not looked for: they would match ordinary words.
const MIN_BASE64_RUN: usize = 6;

/// What a secret is, as its replacement and the refusal of a file name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    /// The API key.
    ApiKey,
    /// The password in the base URL (`http://user:password@host`), or its user when it has no
    /// password (`https://token@host`): what HTTP Basic sends.
    BaseUrlPassword,
}

impl SecretKind {
    /// What takes its place.
    fn replacement(self) -> &'static str {
        match self {
            SecretKind::ApiKey => "[redacted key]",
            SecretKind::BaseUrlPassword => "[redacted password]",
        }
    }

    /// Its name in a message.
    fn name(self) -> &'static str {
        match self {
            SecretKind::ApiKey => "the API key",
            SecretKind::BaseUrlPassword => "the password of the base URL",
        }
    }
}

/// The secrets of one provider. None at all redacts nothing.
#[derive(Clone, Default)]
pub struct Secrets {
    /// Every form of every secret; capture group `i + 1` is a form of `kinds[i]`.
    matcher: Option<Regex>,
    /// The same forms as a lazy DFA, which tells where a text could be the start of one.
    starts: Option<Arc<Starts>>,
    kinds: Vec<SecretKind>,
    /// The most bytes a form spans.
    longest: usize,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({:?})", self.kinds)
    }
}

impl Secrets {
    /// No secret.
    pub fn none() -> Secrets {
        Secrets::default()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }

    /// The secrets of a provider: its key, if it has one, and the credentials of its base URL.
    pub fn of_provider(profile: &ProviderProfile, key: Option<&ApiKey>) -> Secrets {
        let key = key.map(|key| (SecretKind::ApiKey, key.0.clone()));
        let password = profile.base_url_userinfo().map(|userinfo| {
            // With a password, that is the secret; a user alone is a token.
            let written = userinfo.split_once(':').map_or(userinfo, |(_, password)| password);
            let decoded = percent_encoding::percent_decode_str(written).decode_utf8();
            (SecretKind::BaseUrlPassword, decoded.map_or_else(|_| written.to_owned(), Cow::into_owned))
        });
        Secrets::of(key.into_iter().chain(password).collect())
    }

    fn of(secrets: Vec<(SecretKind, String)>) -> Secrets {
        let secrets: Vec<_> = secrets.into_iter().filter(|(_, text)| !text.is_empty()).collect();
        if secrets.is_empty() {
            return Secrets::none();
        }
        let forms: Vec<Forms> = secrets.iter().map(|(_, text)| Forms::of(text)).collect();
        let groups = forms.iter().map(|f| format!("({})", f.pattern)).collect::<Vec<_>>().join("|");
        let matcher = regex::RegexBuilder::new(&groups).size_limit(SIZE_LIMIT).build();
        Secrets {
            matcher: Some(matcher.expect("the pattern of a secret's forms compiles")),
            starts: Some(Arc::new(Starts::new(&Forms::either(&forms).pattern))),
            kinds: secrets.iter().map(|(kind, _)| *kind).collect(),
            longest: forms.iter().map(|f| f.longest).max().unwrap_or(0),
        }
    }

    /// `text` with every form of every secret replaced by what names it (`[redacted key]`).
    pub fn scrub<'t>(&self, text: &'t str) -> Cow<'t, str> {
        match &self.matcher {
            None => Cow::Borrowed(text),
            Some(matcher) => matcher.replace_all(text, |found: &regex::Captures<'_>| self.kind_of(found).replacement()),
        }
    }

    /// Which secret `text` holds in some form, if any.
    pub fn found_in(&self, text: &str) -> Option<SecretKind> {
        let found = self.matcher.as_ref()?.captures(text)?;
        Some(self.kind_of(&found))
    }

    fn kind_of(&self, found: &regex::Captures<'_>) -> SecretKind {
        let group = (1..found.len()).find(|&group| found.get(group).is_some()).unwrap_or(1);
        self.kinds[group - 1]
    }

    /// Scrubs every string of `value` and every key of its objects; whether anything changed.
    pub fn scrub_value(&self, value: &mut Value) -> bool {
        if self.matcher.is_none() {
            return false;
        }
        match value {
            Value::String(text) => match self.scrub(text) {
                Cow::Owned(scrubbed) => {
                    *text = scrubbed;
                    true
                }
                Cow::Borrowed(_) => false,
            },
            Value::Array(items) => items.iter_mut().fold(false, |changed, item| self.scrub_value(item) | changed),
            Value::Object(fields) => {
                let mut changed = false;
                if fields.keys().any(|key| self.found_in(key).is_some()) {
                    let scrubbed: Map<String, Value> =
                        std::mem::take(fields).into_iter().map(|(k, v)| (self.scrub(&k).into_owned(), v)).collect();
                    *fields = scrubbed;
                    changed = true;
                }
                fields.values_mut().fold(changed, |changed, item| self.scrub_value(item) | changed)
            }
            _ => false,
        }
    }

    /// Scrubs everything `value` holds, through its JSON: every string and key, as decoded. A
    /// value that cannot be read back once scrubbed (a secret inside a name the format fixes) is
    /// left as it was: the check before anything is written refuses it.
    pub fn scrub_serialized<T: Serialize + DeserializeOwned>(&self, value: &mut T) {
        if self.matcher.is_none() {
            return;
        }
        let Ok(mut json) = serde_json::to_value(&*value) else { return };
        if self.scrub_value(&mut json) {
            if let Ok(scrubbed) = serde_json::from_value(json) {
                *value = scrubbed;
            }
        }
    }

    /// A model's answer with every secret scrubbed from its text and its tool calls: a model that
    /// repeats the key (asked to by a prompt, say) must not carry it into events and reports.
    pub(crate) fn scrub_response(&self, mut response: ModelResponse) -> ModelResponse {
        if self.matcher.is_none() {
            return response;
        }
        response.text = response.text.map(|text| self.scrub(&text).into_owned());
        for call in &mut response.tool_calls {
            call.id = self.scrub(&call.id).into_owned();
            call.name = self.scrub(&call.name).into_owned();
            self.scrub_value(&mut call.arguments);
        }
        response
    }

    /// A model call as a cassette keeps it: the request scrubbed, and the answer as it came over
    /// the wire with every form of every secret replaced, as long as that still decodes to
    /// `given`, the answer the run was given; an answer whose pieces hold a secret only once
    /// joined (split across two deltas) is kept as `given`, whole, in its API's format.
    pub(crate) fn redact_call(
        &self,
        kind: ProviderKind,
        mut call: RecordedCall,
        given: &ModelResponse,
    ) -> RecordedCall {
        self.scrub_value(&mut call.request);
        let scrubbed = self.scrub(&call.response);
        let wire = WireAnswer { framing: call.framing, bytes: scrubbed.as_bytes().to_vec() };
        if wire.decode(kind).as_ref() == Ok(given) {
            call.response = scrubbed.into_owned();
            return call;
        }
        RecordedCall { request: call.request, framing: Framing::Whole, response: super::whole_answer(kind, given) }
    }

    /// A call a cassette recorded, redacted as [`Self::redact_call`] does, the answer it was given
    /// being its own, scrubbed; an answer that does not decode keeps its text, scrubbed.
    pub(crate) fn redact_recorded(&self, kind: ProviderKind, mut call: RecordedCall) -> RecordedCall {
        let wire = WireAnswer { framing: call.framing, bytes: call.response.as_bytes().to_vec() };
        match wire.decode(kind) {
            Ok(answer) => self.redact_call(kind, call, &self.scrub_response(answer)),
            Err(_) => {
                self.scrub_value(&mut call.request);
                call.response = self.scrub(&call.response).into_owned();
                call
            }
        }
    }

    /// The secret a decoded answer holds, if it holds one.
    fn found_in_answer(&self, answer: &ModelResponse) -> Option<SecretKind> {
        let texts = answer.text.iter().map(String::as_str);
        let calls = answer.tool_calls.iter().flat_map(|call| [call.id.as_str(), call.name.as_str()]);
        texts
            .chain(calls)
            .find_map(|text| self.found_in(text))
            .or_else(|| answer.tool_calls.iter().find_map(|call| self.found_in(&call.arguments.to_string())))
    }

    /// Refuses `value`, about to be written, if any of its strings or keys holds a secret in any
    /// form: the problem is at the first place that does.
    pub fn check_json(&self, value: &Value) -> Result<()> {
        match self.first_place(value, &mut String::new()) {
            Some((pointer, kind)) => Err(refusal(pointer, kind)),
            None => Ok(()),
        }
    }

    /// Refuses the answer of a recorded call that holds a secret as it came or once decoded (a
    /// secret split across pieces of a stream shows only once they are joined).
    pub(crate) fn check_answer(&self, kind: ProviderKind, call: &RecordedCall, pointer: &str) -> Result<()> {
        let wire = WireAnswer { framing: call.framing, bytes: call.response.as_bytes().to_vec() };
        let decoded = || wire.decode(kind).ok().and_then(|answer| self.found_in_answer(&answer));
        match self.found_in(&call.response).or_else(decoded) {
            Some(found) => Err(refusal(pointer.to_owned(), found)),
            None => Ok(()),
        }
    }

    fn first_place(&self, value: &Value, pointer: &mut String) -> Option<(String, SecretKind)> {
        self.matcher.as_ref()?;
        let child = |pointer: &mut String, segment: &str, item: &Value| {
            let length = pointer.len();
            pointer.push('/');
            pointer.push_str(&pointer_segment(segment));
            let found = match self.found_in(segment) {
                Some(kind) => Some((pointer.clone(), kind)),
                None => self.first_place(item, pointer),
            };
            pointer.truncate(length);
            found
        };
        match value {
            Value::String(text) => self.found_in(text).map(|kind| (pointer.clone(), kind)),
            Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| child(pointer, &i.to_string(), item)),
            Value::Object(fields) => fields.iter().find_map(|(key, item)| child(pointer, key, item)),
            _ => None,
        }
    }

    /// The next piece of a streamed `text` that is safe to show, from `shown` on; moves `shown`
    /// past it. Until the answer is `finished`, the bytes that could be the start of a secret
    /// still arriving are held back, and a secret the cut would split goes out whole, scrubbed.
    pub(crate) fn next_shown<'t>(&self, text: &'t str, shown: &mut usize, finished: bool) -> Option<Cow<'t, str>> {
        let mut end = text.len();
        if let (Some(starts), false) = (&self.starts, finished) {
            let from = text.len().saturating_sub(self.longest).max(*shown);
            if let Some(held) =
                (from..text.len()).find(|&at| text.is_char_boundary(at) && starts.could_start(&text[at..]))
            {
                end = held;
            }
        }
        if let Some(matcher) = &self.matcher {
            for found in matcher.find_iter(&text[*shown..]) {
                let (start, stop) = (*shown + found.start(), *shown + found.end());
                if start < end && stop > end {
                    end = stop;
                }
            }
        }
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end <= *shown {
            return None;
        }
        let piece = &text[*shown..end];
        *shown = end;
        Some(self.scrub(piece))
    }
}

/// The most memory a compiled pattern of a secret's forms may take (a long key's is several MB).
const SIZE_LIMIT: usize = 256 << 20;

/// Whether a text could be the start of a secret's form (or a whole one): a lazy DFA of the forms,
/// anchored, fed the text; the text could be one as long as the DFA is not dead at its end.
struct Starts {
    dfa: regex_automata::hybrid::dfa::DFA,
    cache: Mutex<regex_automata::hybrid::dfa::Cache>,
}

impl Starts {
    fn new(pattern: &str) -> Starts {
        use regex_automata::{hybrid::dfa::DFA, nfa::thompson, util::syntax};
        let dfa = DFA::builder()
            .thompson(thompson::Config::new().nfa_size_limit(Some(SIZE_LIMIT)))
            .syntax(syntax::Config::new().utf8(false))
            .build(pattern)
            .expect("the pattern of a secret's forms compiles");
        let cache = Mutex::new(dfa.create_cache());
        Starts { dfa, cache }
    }

    fn could_start(&self, text: &str) -> bool {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let input = regex_automata::Input::new(text).anchored(regex_automata::Anchored::Yes);
        let Ok(mut state) = self.dfa.start_state_forward(&mut cache, &input) else { return true };
        for &byte in text.as_bytes() {
            match self.dfa.next_state(&mut cache, state, byte) {
                Ok(next) if next.is_dead() => return false,
                Ok(next) => state = next,
                // A DFA that gives up cannot say: held back, to be safe.
                Err(_) => return true,
            }
        }
        true
    }
}

/// The problem of a file that would hold a secret.
fn refusal(pointer: String, kind: SecretKind) -> Error {
    Error::problem(pointer, format!("holds {} in some form, so it is not written", kind.name()))
}

/// The regex of a secret's forms, and the most bytes one spans.
struct Forms {
    pattern: String,
    longest: usize,
}

impl Forms {
    /// The forms of `secret`: itself and its base64 runs, each character in each of its forms.
    fn of(secret: &str) -> Forms {
        let runs: Vec<Forms> = std::iter::once(secret.to_owned())
            .chain(base64_runs(secret.as_bytes()))
            .map(|run| {
                let chars: Vec<Forms> = run.chars().map(Forms::of_char).collect();
                Forms {
                    pattern: chars.iter().map(|c| c.pattern.as_str()).collect(),
                    longest: chars.iter().map(|c| c.longest).sum(),
                }
            })
            .collect();
        Forms::either(&runs)
    }

    fn either(forms: &[Forms]) -> Forms {
        Forms {
            pattern: forms.iter().map(|f| f.pattern.as_str()).collect::<Vec<_>>().join("|"),
            longest: forms.iter().map(|f| f.longest).max().unwrap_or(0),
        }
    }

    /// One character in each form it may take in text: itself; JSON-escaped as `\uXXXX` (two of
    /// them beyond the BMP) or by its short escape, behind one to [`MAX_ESCAPE_DEPTH`]
    /// backslashes; each of its UTF-8 bytes percent-encoded.
    fn of_char(c: char) -> Forms {
        let backslashes = format!(r"\\{{1,{MAX_ESCAPE_DEPTH}}}");
        let mut units = [0u16; 2];
        let units = c.encode_utf16(&mut units);
        let unicode: String =
            units.iter().map(|unit| format!("{backslashes}u{}", any_case_hex(&format!("{unit:04x}")))).collect();
        let mut bytes = [0u8; 4];
        let literal = c.encode_utf8(&mut bytes);
        let literal_pattern = regex::escape(literal);
        let percent: String = literal
            .bytes()
            .map(|byte| format!("%(?:25){{0,{MAX_PERCENT_DEPTH}}}{}", any_case_hex(&format!("{byte:02x}"))))
            .collect();
        let mut forms = vec![literal_pattern, unicode, percent];
        forms.extend(short_escape(c).map(|letter| format!("{backslashes}{}", regex::escape(letter))));
        let longest = [units.len() * (MAX_ESCAPE_DEPTH + 5), literal.len() * (3 + 2 * MAX_PERCENT_DEPTH)];
        Forms { pattern: format!("(?:{})", forms.join("|")), longest: longest.into_iter().max().unwrap_or(0) }
    }
}

/// JSON's short escape of `c` (the letter after the backslash), if it has one.
fn short_escape(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\"",
        '\\' => "\\",
        '/' => "/",
        '\u{8}' => "b",
        '\u{c}' => "f",
        '\n' => "n",
        '\r' => "r",
        '\t' => "t",
        _ => return None,
    })
}

/// Hex digits that match in either case.
fn any_case_hex(hex: &str) -> String {
    hex.chars()
        .map(|d| {
            if d.is_ascii_alphabetic() {
                format!("[{}{}]", d.to_ascii_lowercase(), d.to_ascii_uppercase())
            } else {
                d.to_string()
            }
        })
        .collect()
}

/// The runs of base64 (standard and URL-safe) that `secret` encodes to wherever it starts in the
/// encoded bytes: at each of the three alignments, the characters that depend on its bytes alone.
fn base64_runs(secret: &[u8]) -> Vec<String> {
    let mut runs: Vec<String> = Vec::new();
    for offset in 0..3 {
        let mut bytes = vec![0u8; offset];
        bytes.extend_from_slice(secret);
        let encoded = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&bytes);
        let (start, end) = ((offset * 8).div_ceil(6), bytes.len() * 8 / 6);
        if end < start + MIN_BASE64_RUN {
            continue;
        }
        let run = &encoded[start..end];
        for form in [run.to_owned(), run.replace('+', "-").replace('/', "_")] {
            if !runs.contains(&form) {
                runs.push(form);
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-test-4f1e9c0d";

    fn secrets() -> Secrets {
        Secrets::of(vec![(SecretKind::ApiKey, KEY.to_owned())])
    }

    #[test]
    fn finds_the_key_in_every_form_it_takes_on_the_way_out() {
        let base64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
        let forms = [
            KEY.to_owned(),
            KEY.replace('-', "\\u002d"),
            KEY.replace('-', "\\u002D").replace('k', "\\u006b"),
            KEY.replace('-', "\\\\\\\\u002d"),
            serde_json::to_string(&serde_json::to_string(&KEY.replace('-', "\\u002d")).unwrap()).unwrap(),
            KEY.replace('-', "%2D"),
            KEY.replace('-', "%252d"),
            base64(KEY),
            base64(&format!("a{KEY}")),
            base64(&format!("user:{KEY}")),
            base64(&format!("ab{KEY}xyz")).replace('+', "-").replace('/', "_"),
        ];
        for form in forms {
            let text = format!("before {form} after");
            assert_eq!(secrets().found_in(&text), Some(SecretKind::ApiKey), "{text}");
            let scrubbed = secrets().scrub(&text).into_owned();
            assert!(scrubbed.contains("[redacted key]") && secrets().found_in(&scrubbed).is_none(), "{scrubbed}");
        }
        for other in ["sk-test-4f1e9c0", "sk_test-4f1e9c0d", "SK-TEST-4F1E9C0D", "sk-test-4f1e9c0 d"] {
            assert_eq!(secrets().found_in(other), None, "{other}");
        }
    }

    #[test]
    fn scrubs_every_string_and_key_of_json_and_names_the_first_place_left() {
        let mut value = serde_json::json!({ "a": [1, format!("x{KEY}y")], KEY: { "b": "fine" } });
        assert_eq!(
            secrets().check_json(&value).unwrap_err().to_string(),
            "/a/1: holds the API key in some form, so it is not written"
        );
        assert!(secrets().scrub_value(&mut value));
        assert_eq!(value, serde_json::json!({ "a": [1, "x[redacted key]y"], "[redacted key]": { "b": "fine" } }));
        assert!(secrets().check_json(&value).is_ok());
        assert!(!secrets().scrub_value(&mut value), "nothing left to scrub");
    }

    #[test]
    fn a_stream_shows_its_text_without_ever_showing_part_of_a_key() {
        let (head, tail) = KEY.split_at(7);
        let escaped = KEY.replace('-', "\\u002d");
        let pieces = ["Working. Your key is ", head, tail, ", escaped ", &escaped[..9], &escaped[9..], ". All."];
        let mut text = String::new();
        let mut shown = 0;
        let mut heard = Vec::new();
        for (i, piece) in pieces.iter().enumerate() {
            text.push_str(piece);
            heard.extend(secrets().next_shown(&text, &mut shown, i == pieces.len() - 1).map(Cow::into_owned));
        }
        assert_eq!(heard.concat(), "Working. Your key is [redacted key], escaped [redacted key]. All.");
        for piece in &heard {
            assert!(!piece.contains(head) && !piece.contains("\\u002d"), "{heard:?}");
        }
    }

    #[test]
    fn an_answer_kept_whole_or_streamed_reads_back_as_the_answer_given() {
        use unfold_engine::provider::{MeasuredCache, ToolCall, Usage};
        let call = |id: &str, arguments: Value| ToolCall { id: id.into(), name: "lookup".into(), arguments };
        let usage = |cache| Some(Usage { prompt_tokens: 40, completion_tokens: 7, cache });
        let cached = |in_prompt_tokens| Some(MeasuredCache { read_tokens: 30, write_tokens: 0, in_prompt_tokens });
        for kind in [ProviderKind::Openai, ProviderKind::OpenaiResponses, ProviderKind::Anthropic] {
            let answers = [
                ModelResponse { text: Some("Done [redacted key].".into()), ..ModelResponse::default() },
                // Cut at the output limit: it must replay cut, never completed.
                ModelResponse {
                    text: Some("The login fa".into()),
                    usage: usage(None),
                    cut_at_limit: true,
                    ..ModelResponse::default()
                },
                ModelResponse {
                    text: None,
                    tool_calls: vec![
                        call("call_1", serde_json::json!({ "id": 7, "note": "[redacted key]" })),
                        call("call_1b", Value::String("{\"id\": 7".into())),
                        call("call_2", Value::String("7".into())),
                        call("call_3", serde_json::json!({})),
                    ],
                    usage: usage(cached(kind != ProviderKind::Anthropic)),
                    cut_at_limit: false,
                },
                ModelResponse {
                    text: Some("Looking.".into()),
                    tool_calls: vec![call("call_0", serde_json::json!({ "id": 1 }))],
                    usage: usage(None),
                    cut_at_limit: false,
                },
            ];
            for answer in answers {
                let whole = WireAnswer {
                    framing: Framing::Whole,
                    bytes: super::super::whole_answer(kind, &answer).into_bytes(),
                };
                assert_eq!(whole.decode(kind).as_ref(), Ok(&answer), "{kind:?}");
                // The same answer streamed, as Unfold's scripted model endpoint streams it.
                let events = unfold_engine::answer_shapes::stream(super::super::api_of(kind), &answer, Some("m"));
                let streamed = WireAnswer { framing: Framing::Stream, bytes: events.concat().into_bytes() };
                assert_eq!(streamed.decode(kind).as_ref(), Ok(&answer), "{kind:?} streamed: {events:?}");
            }
        }
    }

    #[test]
    fn no_secret_redacts_nothing() {
        let text = format!("{KEY} stays");
        assert_eq!(Secrets::none().scrub(&text), text);
        assert_eq!(Secrets::none().found_in(&text), None);
        let mut shown = 0;
        assert_eq!(Secrets::none().next_shown(&text, &mut shown, false).as_deref(), Some(text.as_str()));
    }
}
