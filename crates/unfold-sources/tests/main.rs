//! The tool sources against MCP servers nobody here wrote: a server made with the official Python
//! SDK (`servers/changing_tools.py`, its list changing when a tool is called) and the reference
//! `@modelcontextprotocol/server-everything` from npm, both installed by `scripts/mcp-servers.sh install`
//! (which `scripts/test.sh` runs first). Nothing is mocked at the protocol level.

mod bad_sources;
mod children;
mod comparison;
mod everything;
mod launch;
mod python_server;
mod servers;
