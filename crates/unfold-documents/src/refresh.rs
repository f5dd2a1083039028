//! A lane's refresh policy (spec 12): when the model first sees a change to the tools the lane
//! could offer (a section read reveals tools, a plugin's or a source's change). Real agent hosts
//! differ exactly here, so a host profile names one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When a lane's model first sees a new tool list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Refresh {
    /// From the next model call (the dynamic adapter).
    NextCall,
    /// `{"late": K}`: K model calls after the next one (a host that re-lists its tools only after
    /// it has sent the next request).
    Late(u32),
    /// From the first model call of the next user turn.
    NextTurn,
    /// Not in this conversation: the tool list stays as it was.
    Never,
    /// Halt and start the attempt again (the restart adapter).
    Restart,
}

impl Refresh {
    /// Its name as files and reports write it, `late:K` for a late one.
    pub fn name(self) -> String {
        match self {
            Refresh::NextCall => "next_call".to_owned(),
            Refresh::Late(calls) => format!("late:{calls}"),
            Refresh::NextTurn => "next_turn".to_owned(),
            Refresh::Never => "never".to_owned(),
            Refresh::Restart => "restart".to_owned(),
        }
    }
}
