//! The relay's commands: the app's own plugin relay started and stopped from the Sources tab, its
//! sessions (never their tokens), and a live log of every session's events through a channel.
//! Each translates into `unfold_application::relay::RelayService`.

use std::sync::Arc;

use serde::Serialize;
use specta::Type;
use tauri::ipc::Channel;
use tauri::State;
use unfold_application::relay::{RelayService, RelayStatus, DEFAULT_PORT};

use crate::command_error::CommandError;

/// One event of the live log.
#[derive(Debug, Clone, Serialize, Type)]
pub struct RelayLogEntry {
    /// The session's code.
    pub code: String,
    /// `tool-availability-update` or `tool-request`.
    pub event: String,
    /// The event's data (a request's arguments; an update's tools and reason).
    #[specta(type = unfold_documents::json_type::JsonValue)]
    pub data: serde_json::Value,
}

/// Where the app's relay listens, if it does, and its sessions.
#[tauri::command]
#[specta::specta]
pub async fn relay_status(relay: State<'_, Arc<RelayService>>) -> Result<RelayStatus, CommandError> {
    Ok(relay.status())
}

/// Starts the app's relay on 127.0.0.1 (port 7391 unless `port` says otherwise).
#[tauri::command]
#[specta::specta]
pub async fn start_relay(relay: State<'_, Arc<RelayService>>, port: Option<u16>) -> Result<RelayStatus, CommandError> {
    Ok(relay.start(port.unwrap_or(DEFAULT_PORT)).await?)
}

/// Stops the app's relay: its streams close and its sessions are forgotten.
#[tauri::command]
#[specta::specta]
pub async fn stop_relay(relay: State<'_, Arc<RelayService>>) -> Result<RelayStatus, CommandError> {
    Ok(relay.stop().await)
}

/// Sends every event of every session to `log` as it happens, until the relay stops or the UI
/// drops the channel.
#[tauri::command]
#[specta::specta]
pub async fn watch_relay(relay: State<'_, Arc<RelayService>>, log: Channel<RelayLogEntry>) -> Result<(), CommandError> {
    let Some(mut events) = relay.observe() else { return Ok(()) };
    tauri::async_runtime::spawn(async move {
        while let Some((code, event)) = events.recv().await {
            let entry = RelayLogEntry { code, event: event.name.to_owned(), data: event.data };
            if log.send(entry).is_err() {
                break;
            }
        }
    });
    Ok(())
}
