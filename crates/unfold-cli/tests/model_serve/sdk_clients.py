"""The official Python SDKs of OpenAI, Anthropic and Google as clients of `unfold model serve`: each
asks the endpoint at BASE (`http://127.0.0.1:PORT`) for the first step of the scenario, whole and
streamed, and prints what the SDK parsed of the answer, one JSON object per request, as
`{"client": ..., "tool": NAME, "arguments": {...}}`. Any SDK that cannot parse an answer raises.

Usage: python sdk_clients.py BASE
"""

import json
import sys

BASE = sys.argv[1]
KEY = "sk-unfold-test"
MODEL = "unfold-scripted"
USER = "Find the auth docs."
DESCRIPTION = "Read a summarized section in full."
SCHEMA = {"type": "object", "properties": {"section_key": {"type": "string"}}, "required": ["section_key"]}


def say(client, name, arguments):
    print(json.dumps({"client": client, "tool": name, "arguments": arguments}), flush=True)


def openai_clients():
    from openai import OpenAI

    client = OpenAI(base_url=f"{BASE}/v1", api_key=KEY)
    tools = [{"type": "function", "function": {"name": "read_section", "description": DESCRIPTION, "parameters": SCHEMA}}]
    messages = [{"role": "user", "content": USER}]
    whole = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
    call = whole.choices[0].message.tool_calls[0]
    say("openai chat", call.function.name, json.loads(call.function.arguments))

    stream = client.chat.completions.create(model=MODEL, messages=messages, tools=tools, stream=True)
    name, arguments = None, ""
    for chunk in stream:
        for delta in chunk.choices[0].delta.tool_calls or [] if chunk.choices else []:
            name = delta.function.name or name
            arguments += delta.function.arguments or ""
    say("openai chat stream", name, json.loads(arguments))

    tools = [{"type": "function", "name": "read_section", "description": DESCRIPTION, "parameters": SCHEMA}]
    response = client.responses.create(model=MODEL, input=USER, tools=tools)
    call = next(item for item in response.output if item.type == "function_call")
    say("openai responses", call.name, json.loads(call.arguments))

    with client.responses.stream(model=MODEL, input=USER, tools=tools) as stream:
        final = stream.get_final_response()
    call = next(item for item in final.output if item.type == "function_call")
    say("openai responses stream", call.name, json.loads(call.arguments))


def anthropic_clients():
    from anthropic import Anthropic

    client = Anthropic(base_url=BASE, api_key=KEY)
    tools = [{"name": "read_section", "description": DESCRIPTION, "input_schema": SCHEMA}]
    messages = [{"role": "user", "content": USER}]
    whole = client.messages.create(model=MODEL, max_tokens=256, messages=messages, tools=tools)
    call = next(block for block in whole.content if block.type == "tool_use")
    say("anthropic", call.name, call.input)

    with client.messages.stream(model=MODEL, max_tokens=256, messages=messages, tools=tools) as stream:
        final = stream.get_final_message()
    call = next(block for block in final.content if block.type == "tool_use")
    say("anthropic stream", call.name, call.input)


def gemini_clients():
    from google import genai
    from google.genai import types

    client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=BASE))
    function = types.FunctionDeclaration(name="read_section", description=DESCRIPTION, parameters_json_schema=SCHEMA)
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[function])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    whole = client.models.generate_content(model=MODEL, contents=USER, config=config)
    call = whole.function_calls[0]
    say("gemini", call.name, dict(call.args))

    calls = []
    for chunk in client.models.generate_content_stream(model=MODEL, contents=USER, config=config):
        calls.extend(chunk.function_calls or [])
    say("gemini stream", calls[0].name, dict(calls[0].args))


openai_clients()
anthropic_clients()
gemini_clients()
