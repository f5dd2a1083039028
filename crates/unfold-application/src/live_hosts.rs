//! Live hosts (spec 13, `unfold host run … --provider PROFILE`): a real agent host with a real
//! model. The model endpoint forwards each of the host's requests to the provider profile's model
//! (`HttpProvider::forward`) and records both sides. The key stays in this process: the host is
//! given a placeholder, the request goes out with the real key in a header, and what comes back is
//! scrubbed of it before the host, the log or the history sees it.

use std::sync::Arc;

use serde_json::Value;
use unfold_documents::host_profile::HostApi;
use unfold_hostlab::forwarding::{Forwarded, Forwarding, Upstream};
use unfold_live::{api_of, ApiKey, Framing, HttpProvider, ProviderProfile};

use crate::error::{AppError, AppResult, ErrorCode};

/// The real model a live host's requests go to.
#[derive(Debug, Clone)]
pub struct LiveModel {
    upstream: Arc<ProviderUpstream>,
    /// The provider profile's name, as the history keeps it.
    pub profile: String,
    /// Its model.
    pub model: String,
}

impl LiveModel {
    /// The model of `profile`, with its key (from the environment or the keychain).
    pub fn of_profile(profile: ProviderProfile) -> AppResult<LiveModel> {
        let key = ApiKey::for_profile(&profile)?;
        let (name, model) = (profile.name.clone(), profile.model.clone());
        let provider = HttpProvider::new(profile, key)?;
        Ok(LiveModel { upstream: Arc::new(ProviderUpstream(provider)), profile: name, model })
    }

    /// What the endpoint forwards to.
    pub fn upstream(&self) -> Arc<dyn Upstream> {
        Arc::clone(&self.upstream) as Arc<dyn Upstream>
    }

    /// Refuses the host `name`, which speaks `speaks` (none: any API it is told), when that is
    /// not the profile's API: the endpoint hands on its requests as they are.
    pub fn check_host(&self, name: &str, speaks: Option<HostApi>) -> AppResult<()> {
        let profile_api = self.upstream.api();
        if speaks == Some(profile_api) {
            return Ok(());
        }
        let spoken = speaks.map_or("any API it is told", HostApi::name);
        Err(AppError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{name} speaks {spoken}; provider profile '{}' speaks {}: choose a profile of the host's API",
                self.profile,
                profile_api.name()
            ),
        ))
    }
}

/// A provider profile's model behind the endpoint.
#[derive(Debug)]
struct ProviderUpstream(HttpProvider);

impl Upstream for ProviderUpstream {
    fn api(&self) -> HostApi {
        api_of(self.0.profile().kind)
    }

    fn describe(&self) -> String {
        let profile = self.0.profile();
        format!("{} at {}", profile.model, profile.shown(&profile.base_url))
    }

    fn forward<'a>(&'a self, body: &'a Value, stream: bool) -> Forwarding<'a> {
        Box::pin(async move {
            let (answer, wire) = self.0.forward(body, stream).await?;
            Ok(Forwarded { answer, bytes: wire.bytes, streamed: wire.framing == Framing::Stream })
        })
    }
}
