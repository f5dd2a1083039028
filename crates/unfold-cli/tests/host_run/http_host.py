"""A small agent host as `unfold host run command` runs it: the template's tools from the MCP server
at UNFOLD_MCP_URL (the official MCP Python SDK, streamable HTTP), its model at
UNFOLD_MODEL_BASE_URL (OpenAI Chat Completions over plain HTTP). It lists the tools before every
request, as a host that does not cache them, and runs each user message until the model answers
without calling a tool.

usage: http_host.py   (everything it needs is in its environment)
"""

import asyncio
import json
import os
import urllib.request

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def completed(messages: list, tools: list) -> dict:
    offered = [
        {"type": "function", "function": {"name": t.name, "description": t.description or "", "parameters": t.inputSchema}}
        for t in tools
    ]
    body = json.dumps({"model": "scripted", "messages": messages, "tools": offered}).encode()
    request = urllib.request.Request(
        os.environ["UNFOLD_MODEL_BASE_URL"] + "/chat/completions",
        data=body,
        headers={"Content-Type": "application/json", "Authorization": "Bearer not-a-key"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["choices"][0]["message"]


async def main() -> None:
    messages = [{"role": "system", "content": os.environ["UNFOLD_SYSTEM_PROMPT"]}]
    async with streamable_http_client(os.environ["UNFOLD_MCP_URL"]) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for user in json.loads(os.environ["UNFOLD_USER_MESSAGES"]):
                messages.append({"role": "user", "content": user})
                for _ in range(20):
                    reply = completed(messages, (await session.list_tools()).tools)
                    calls = reply.get("tool_calls") or []
                    messages.append({"role": "assistant", "content": reply.get("content"), "tool_calls": calls or None})
                    if not calls:
                        break
                    for call in calls:
                        arguments = json.loads(call["function"]["arguments"] or "{}")
                        result = await session.call_tool(call["function"]["name"], arguments)
                        text = "".join(block.text for block in result.content if block.type == "text")
                        messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})


asyncio.run(main())
