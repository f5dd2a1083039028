"""Unfold's driver for the Python agent hosts of the host lab (spec 13): one agent, built with the
host's own library, given the template's system prompt, pointed at Unfold's scripted model endpoint
and at the template's MCP server, and sent the scenario's user messages one turn after another.

Everything comes from the environment Unfold gives it:
  UNFOLD_HOST            openai-agents | pydantic-ai
  UNFOLD_CACHE_TOOLS     1: the library caches the MCP tool list; 0: it lists tools again
  UNFOLD_MODEL_BASE_URL  the endpoint, ending in /v1
  UNFOLD_MODEL_API       openai-responses | openai-chat
  UNFOLD_MCP_COMMAND     a JSON array: the command that serves the template over stdio
  UNFOLD_SYSTEM_PROMPT   the template's system prompt
  UNFOLD_USER_MESSAGES   a JSON array: the user's message of each turn

It prints each turn's final answer; any failure ends it with a message and status 1.
"""

import asyncio
import json
import os
import sys

# The endpoint accepts any key; the library insists on one.
API_KEY = "unfold-scripted"
MODEL = "unfold-scripted"
MAX_MODEL_CALLS = 50


def setting(name):
    value = os.environ.get(name)
    if value is None:
        sys.exit(f"unfold host driver: {name} is not set")
    return value


async def run_openai_agents(job):
    from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, set_tracing_disabled
    from agents.mcp import MCPServerStdio
    from openai import AsyncOpenAI

    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=job["base_url"], api_key=API_KEY)
    if job["api"] == "openai-chat":
        model = OpenAIChatCompletionsModel(model=MODEL, openai_client=client)
    else:
        model = OpenAIResponsesModel(model=MODEL, openai_client=client)
    command = job["mcp_command"]
    params = {"command": command[0], "args": command[1:]}
    async with MCPServerStdio(
        params=params, cache_tools_list=job["cache"], name="unfold", client_session_timeout_seconds=30
    ) as server:
        agent = Agent(name="unfold", instructions=job["system"], model=model, mcp_servers=[server])
        history = []
        for message in job["turns"]:
            result = await Runner.run(
                agent, history + [{"role": "user", "content": message}], max_turns=MAX_MODEL_CALLS
            )
            history = result.to_input_list()
            print(result.final_output, flush=True)


async def run_pydantic_ai(job):
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset, StdioTransport
    from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=job["base_url"], api_key=API_KEY)
    if job["api"] == "openai-chat":
        model = OpenAIChatModel(MODEL, provider=provider)
    else:
        model = OpenAIResponsesModel(MODEL, provider=provider)
    command = job["mcp_command"]
    toolset = MCPToolset(StdioTransport(command=command[0], args=command[1:]), cache_tools=job["cache"])
    agent = Agent(model, instructions=job["system"], toolsets=[toolset])
    async with agent:
        history = None
        for message in job["turns"]:
            result = await agent.run(message, message_history=history)
            history = result.all_messages()
            print(result.output, flush=True)


HOSTS = {"openai-agents": run_openai_agents, "pydantic-ai": run_pydantic_ai}


def main():
    host = setting("UNFOLD_HOST")
    if host not in HOSTS:
        sys.exit(f"unfold host driver: no host '{host}' (one of {', '.join(HOSTS)})")
    job = {
        "cache": setting("UNFOLD_CACHE_TOOLS") == "1",
        "base_url": setting("UNFOLD_MODEL_BASE_URL"),
        "api": os.environ.get("UNFOLD_MODEL_API") or "openai-responses",
        "mcp_command": json.loads(setting("UNFOLD_MCP_COMMAND")),
        "system": setting("UNFOLD_SYSTEM_PROMPT"),
        "turns": json.loads(setting("UNFOLD_USER_MESSAGES")),
    }
    asyncio.run(HOSTS[host](job))


if __name__ == "__main__":
    main()
