"""An MCP server (the official Python SDK's FastMCP) whose tool list changes when one of its tools is
called: `unlock` adds `deploy` and tells the client the list changed; `crash` ends it mid-run;
`huge` answers with as many megabytes as asked; with UNFOLD_TEST_BAD_NAME set it also lists a tool
whose name no model API takes. Unfold's tests start it over stdio; nothing in it knows Unfold."""

import os

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ToolAnnotations

server = FastMCP("changing-tools")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def lookup(issue: int) -> str:
    """Look up an issue by its number."""
    return f"issue {issue}: login fails"


@server.tool(annotations=ToolAnnotations(destructiveHint=True))
async def unlock(ctx: Context) -> str:
    """Unlock the deploy tool."""
    if server._tool_manager.get_tool("deploy") is None:
        server.add_tool(deploy, annotations=ToolAnnotations(destructiveHint=True))
        await ctx.session.send_tool_list_changed()
    return "deploy unlocked"


def deploy(target: str) -> str:
    """Deploy to a target."""
    return f"deployed to {target}"


@server.tool()
def fail() -> str:
    """Always fails."""
    raise ValueError("the tool failed on purpose")


@server.tool()
def crash() -> str:
    """Ends the server at once, as a crash would."""
    os._exit(3)


@server.tool()
def huge(megabytes: int) -> str:
    """Answers with this many megabytes of text."""
    return "x" * (megabytes * 1024 * 1024)


def spaced() -> str:
    """A tool whose name has a space."""
    return "never called"


if os.environ.get("UNFOLD_TEST_BAD_NAME"):
    server.add_tool(spaced, name="has space")


if __name__ == "__main__":
    server.run("stdio")
