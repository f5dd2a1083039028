//! What of a run with a real model leaves the process — the events it tells, its report, each
//! call's request and answer, its history rows and the files written of it — scrubbed of the
//! provider's secrets in every form, and checked once more before it is written
//! (`unfold_live::redaction` finds them). The one way out for `unfold run`, replays and live
//! comparisons alike: the provider scrubs the model's answers, but a tool's result, or a
//! scenario's text, may repeat a secret all the same.

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;
use unfold_documents::provider_profile::ProviderProfile;
use unfold_engine::compare::{CompareProgress, Comparison};
use unfold_engine::Event;
use unfold_live::{ApiKey, Secrets};
use unfold_stores::run_history::RunRecord;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::run_history::OpenRunHistory;

/// The secrets of `profile`: its key, if it can be read now, and its base URL's password.
pub fn secrets_of(profile: &ProviderProfile) -> Secrets {
    let key = ApiKey::for_profile(profile).ok().flatten();
    Secrets::of_provider(profile, key.as_ref())
}

/// `event` as it may be told, scrubbed of `secrets`.
pub(crate) fn told_event<'e>(secrets: &Secrets, event: &'e Event) -> Cow<'e, Event> {
    if secrets.is_empty() {
        return Cow::Borrowed(event);
    }
    let mut event = event.clone();
    secrets.scrub_serialized(&mut event);
    Cow::Owned(event)
}

/// A comparison's `progress` as it may be told: its event scrubbed of `secrets`. (A live model's
/// text arrives scrubbed: the provider holds back what could be the start of a secret.)
pub(crate) fn told_progress(secrets: &Secrets, progress: CompareProgress) -> CompareProgress {
    match progress {
        CompareProgress::Event { lane, event } => {
            let event = Box::new(told_event(secrets, &event).into_owned());
            CompareProgress::Event { lane, event }
        }
        other => other,
    }
}

/// Scrubs `comparison` of `secrets`: its report, and each call's request and answer.
pub(crate) fn scrub_comparison(secrets: &Secrets, comparison: &mut Comparison) {
    secrets.scrub_serialized(&mut comparison.report);
    for call in comparison.requests.iter_mut().flat_map(|run| &mut run.calls) {
        secrets.scrub_value(&mut call.body);
        secrets.scrub_value(&mut call.response);
    }
}

/// Keeps `records` in `history`, unless one would hold any of `secrets` in some form: then none
/// is kept. The ids they are kept under, in order (none with the history turned off), or why they
/// were not kept (the runs stand all the same).
pub(crate) fn keep(history: &OpenRunHistory, records: &[RunRecord<'_>], secrets: &Secrets) -> AppResult<Vec<i64>> {
    if !secrets.is_empty() {
        for record in records {
            // What the history keeps of a run that a secret could be in (the rest is the
            // template's, and its file's name).
            let row = serde_json::json!({ "scenario": record.scenario, "provider": record.provider,
                "model": record.model, "lane": record.lane, "user": record.user_turns, "run": record.report });
            secrets.check_json(&row)?;
        }
    }
    history.keep_ids(records)
}

/// Refuses `value`, about to be written to `path`, if it holds any of `secrets` in some form:
/// the problem names the file and the first place that does.
pub(crate) fn check_file(path: &Path, value: &impl Serialize, secrets: &Secrets) -> AppResult<()> {
    if secrets.is_empty() {
        return Ok(());
    }
    let value = serde_json::to_value(value).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
    Ok(secrets.check_json(&value).map_err(|e| e.in_file(path))?)
}

/// [`check_file`] of a file's `text`: read as JSON when it is (a secret is looked for in every
/// string as decoded), else as it is.
pub(crate) fn check_file_text(path: &Path, text: &str, secrets: &Secrets) -> AppResult<()> {
    if secrets.is_empty() {
        return Ok(());
    }
    let value: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|_| text.into());
    check_file(path, &value, secrets)
}
