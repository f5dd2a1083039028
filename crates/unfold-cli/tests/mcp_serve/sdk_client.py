"""The official MCP Python SDK as a host of `unfold mcp serve`: lists the tools, calls a hidden one,
reads the section that reveals it, waits for tools/list_changed, lists again and calls it. Prints
what it saw as one JSON object.

usage: sdk_client.py UNFOLD TEMPLATE SCENARIO LOG   (the server over stdio, started here)
       sdk_client.py --url URL                      (a server over streamable HTTP)
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def said(result: types.CallToolResult) -> dict:
    return {"error": result.isError, "text": "".join(c.text for c in result.content if c.type == "text")}


def list_changes():
    """An event set each time the server says its tools changed, and the handler that sets it."""
    changed = asyncio.Event()

    async def on_message(message) -> None:
        if isinstance(message, types.ServerNotification) and isinstance(
            message.root, types.ToolListChangedNotification
        ):
            changed.set()

    return changed, on_message


def connected():
    """The streams to the server the arguments name."""
    if sys.argv[1] == "--url":
        return streamable_http_client(sys.argv[2])
    unfold, template, scenario, log = sys.argv[1:5]
    server = StdioServerParameters(
        command=unfold, args=["mcp", "serve", template, "--scenario", scenario, "--log", log]
    )
    return stdio_client(server)


async def main() -> None:
    changed, on_message = list_changes()
    seen: dict = {}
    async with connected() as (read, write, *_):
        async with ClientSession(read, write, message_handler=on_message) as session:
            started = await session.initialize()
            seen["protocol"] = started.protocolVersion
            seen["server"] = started.serverInfo.name
            seen["list_changed"] = bool(started.capabilities.tools and started.capabilities.tools.listChanged)
            seen["before"] = [tool.name for tool in (await session.list_tools()).tools]
            seen["hidden"] = said(await session.call_tool("search", {"query": "tokens"}))
            read_result = said(await session.call_tool("read_section", {"section_key": "context"}))
            seen["read"] = json.loads(read_result["text"])
            await asyncio.wait_for(changed.wait(), 10)
            seen["after"] = [tool.name for tool in (await session.list_tools()).tools]
            seen["searched"] = said(await session.call_tool("search", {"query": "tokens"}))
    print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main())
