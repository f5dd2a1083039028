"""A small plugin for Unfold's relay (spec 9), in plain Python (standard library only).

It opens a session and its event stream, registers one tool, `open_table`, prints the session's
code and token as one JSON line (give them to `unfold compare --relay-session CODE` with the token
in UNFOLD_RELAY_TOKEN), and answers the tool requests of the runs attached to the session. Opening a table adds a second tool, `plot_column`, before the plugin answers: the
change the dynamic adapter injects and the restart adapter restarts for.

    python3 examples/relay-plugin/table_plugin.py [http://127.0.0.1:7391]
"""

import json
import sys
import urllib.request
from http.client import HTTPConnection
from urllib.parse import urlparse

RELAY = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:7391"

OPEN_TABLE = {
    "name": "open_table",
    "description": "Open a table of the document by its name.",
    "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    "annotations": {"readOnlyHint": True},
}
PLOT_COLUMN = {
    "name": "plot_column",
    "description": "Plot a column of the open table.",
    "inputSchema": {"type": "object", "properties": {"column": {"type": "string"}}, "required": ["column"]},
    "annotations": {"readOnlyHint": True},
}


def post(path, body, token=None):
    """POSTs `body` as JSON to the relay and returns the answer's JSON."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(RELAY + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def open_stream(code, token):
    """Opens the session's event stream (before registering, so no request is missed)."""
    address = urlparse(RELAY)
    connection = HTTPConnection(address.hostname, address.port)
    connection.request("GET", f"/api/sessions/{code}/stream", headers={"Authorization": f"Bearer {token}"})
    return connection.getresponse()


def events(response):
    """The stream's server-sent events, as (name, data) pairs, as they arrive."""
    name, data = None, ""
    for raw in response:
        line = raw.decode().rstrip("\r\n")
        if line.startswith("event:"):
            name = line[len("event:"):].strip()
        elif line.startswith("data:"):
            data += line[len("data:"):].strip()
        elif line == "" and name:
            yield name, json.loads(data)
            name, data = None, ""


def answer(request, tables):
    """What the plugin answers a tool request: the result, or an error for the model."""
    args = request.get("args") or {}
    if request["tool"] == "open_table":
        tables.add(args.get("name", "?"))
        return {"result": f"table '{args.get('name')}' is open: columns species, mass, lifespan"}
    if request["tool"] == "plot_column":
        if not tables:
            return {"error": "no table is open"}
        return {"result": f"plotted {args.get('column')} of {sorted(tables)[0]}"}
    return {"error": f"unknown tool {request['tool']}"}


def main():
    session = post("/api/sessions", {})
    code, token = session["code"], session["token"]
    stream = events(open_stream(code, token))
    post(f"/api/sessions/{code}/register-tools",
         {"pluginType": "tables", "pluginVersion": "1.0", "capabilities": ["tables"], "tools": [OPEN_TABLE],
          "environment": {"document": "mammals"}}, token)
    # Once it is printed, the session is ready: its stream is open and its tools registered.
    print(json.dumps({"code": code, "token": token}), flush=True)
    tables = set()
    plotting = False
    for name, data in stream:
        if name != "tool-request":
            continue
        if data["tool"] == "open_table" and not plotting:
            plotting = True
            post(f"/api/sessions/{code}/update-tools",
                 {"toolUpdates": {"added": [PLOT_COLUMN]}, "reason": "a table is open"}, token)
        post(f"/api/sessions/{code}/response", {"id": data["id"], **answer(data, tables)}, token)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
