"""The official MCP Python SDK as a host of `unfold mcp serve` for a template whose `context` section
takes the tools of a real MCP server (`changing_tools.py`): reads the section, calls the server's
`unlock` (which adds `deploy` to the server's list), waits for tools/list_changed, lists again and
calls `deploy`, and the template's own `lookup`. Prints what it saw as one JSON object.

usage: sources_client.py UNFOLD TEMPLATE [FLAG…]   (FLAG: given to `mcp serve`, e.g. --allow-sources)
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from sdk_client import list_changes, said


async def main() -> None:
    unfold, template, *flags = sys.argv[1:]
    server = StdioServerParameters(command=unfold, args=["mcp", "serve", template, *flags])
    changed, on_message = list_changes()
    seen: dict = {}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, message_handler=on_message) as session:
            await session.initialize()
            await session.call_tool("read_section", {"section_key": "context"})
            await asyncio.wait_for(changed.wait(), 10)
            changed.clear()
            seen["read"] = [tool.name for tool in (await session.list_tools()).tools]
            seen["unlock"] = said(await session.call_tool("unlock", {}))
            try:
                await asyncio.wait_for(changed.wait(), 3)
                seen["unlocked"] = [tool.name for tool in (await session.list_tools()).tools]
            except asyncio.TimeoutError:
                seen["unlocked"] = None
            seen["deploy"] = said(await session.call_tool("deploy", {"target": "staging"}))
            seen["lookup"] = said(await session.call_tool("lookup", {"issue": 7}))
    print(json.dumps(seen))


asyncio.run(main())
