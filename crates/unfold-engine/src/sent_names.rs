//! What a lane calls the tools it sends (spec 12): the template's names, or, as MCP hosts name the
//! tools of their servers, a source's tools as `mcp__{source}__{tool}`. The run keeps the template's
//! names; the conversation sends the lane's, and a call the model makes by a sent name is answered
//! as the template's tool of that name.

use std::borrow::Cow;
use std::collections::HashMap;

use unfold_documents::host_profile::ToolNames;
use unfold_documents::tool::OfferedTool;

/// The names a conversation sends in place of the template's: empty when it sends the template's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SentNames {
    /// The template's name → the name sent, for each tool sent under another name.
    sent: HashMap<String, String>,
}

impl SentNames {
    /// The names `names` gives the tools of each source in `source_tools` (source → its tools).
    pub(crate) fn of(names: ToolNames, source_tools: &HashMap<String, Vec<String>>) -> SentNames {
        let sent = match names {
            ToolNames::Plain => HashMap::new(),
            ToolNames::McpPrefixed => source_tools
                .iter()
                .flat_map(|(source, tools)| tools.iter().map(move |tool| (tool.clone(), mcp_name(source, tool))))
                .collect(),
        };
        SentNames { sent }
    }

    /// Whether every tool is sent under the template's name.
    pub(crate) fn is_plain(&self) -> bool {
        self.sent.is_empty()
    }

    /// The name the tool `name` (the template's) is sent under.
    pub(crate) fn sent<'n>(&'n self, name: &'n str) -> &'n str {
        self.sent.get(name).map_or(name, String::as_str)
    }

    /// The template's name of the tool sent as `sent`; `sent` itself when no tool is sent so.
    pub(crate) fn template<'n>(&'n self, sent: &'n str) -> &'n str {
        self.sent.iter().find(|(_, name)| *name == sent).map_or(sent, |(template, _)| template.as_str())
    }

    /// `tool` as it is sent: itself when it keeps its name.
    pub(crate) fn tool<'t>(&self, tool: &'t OfferedTool) -> Cow<'t, OfferedTool> {
        match self.sent.get(&tool.name) {
            Some(name) => Cow::Owned(OfferedTool { name: name.clone(), ..tool.clone() }),
            None => Cow::Borrowed(tool),
        }
    }

    /// `names` as they are sent.
    pub(crate) fn all(&self, names: &[String]) -> Vec<String> {
        names.iter().map(|name| self.sent(name).to_owned()).collect()
    }
}

/// The name an MCP host gives the tool `tool` of its server `source`.
fn mcp_name(source: &str, tool: &str) -> String {
    format!("{MCP_PREFIX}{source}{MCP_SEPARATOR}{tool}")
}

const MCP_PREFIX: &str = "mcp__";
const MCP_SEPARATOR: &str = "__";

/// The tool's own name in a name an MCP host gives it (`mcp__{source}__{tool}`), if it is one.
pub(crate) fn mcp_tool(sent: &str) -> Option<&str> {
    let (_, tool) = sent.strip_prefix(MCP_PREFIX)?.split_once(MCP_SEPARATOR)?;
    Some(tool)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> HashMap<String, Vec<String>> {
        HashMap::from([("docs".to_owned(), vec!["search".to_owned(), "fetch".to_owned()])])
    }

    #[test]
    fn mcp_hosts_prefix_a_sources_tools_and_a_call_by_that_name_is_the_templates_tool() {
        let names = SentNames::of(ToolNames::McpPrefixed, &sources());
        assert_eq!(names.sent("search"), "mcp__docs__search");
        assert_eq!(names.template("mcp__docs__search"), "search");
        // The template's own tools and the disclosure tools keep their names.
        assert_eq!(names.sent("read_section"), "read_section");
        assert_eq!(names.template("read_section"), "read_section");
        // A name no tool is sent under stays as the model wrote it: an unknown tool.
        assert_eq!(names.template("mcp__other__search"), "mcp__other__search");
        assert_eq!(mcp_tool(names.sent("search")), Some("search"));
        assert_eq!(mcp_tool("search"), None);
    }

    #[test]
    fn plain_names_are_the_templates() {
        let names = SentNames::of(ToolNames::Plain, &sources());
        assert!(names.is_plain());
        assert_eq!(names.sent("search"), "search");
    }
}
