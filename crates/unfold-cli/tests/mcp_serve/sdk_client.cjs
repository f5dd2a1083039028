// The MCP reference SDK for TypeScript (npm @modelcontextprotocol/sdk) as a host of `unfold mcp
// serve`: the same steps as sdk_client.py, printed as one JSON object.
// usage: NODE_PATH=…/node_modules node sdk_client.cjs UNFOLD TEMPLATE SCENARIO   (stdio, started here)
//        NODE_PATH=…/node_modules node sdk_client.cjs --url URL                  (streamable HTTP)
"use strict";

const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { ToolListChangedNotificationSchema } = require("@modelcontextprotocol/sdk/types.js");

const said = (result) => ({
  error: Boolean(result.isError),
  text: result.content.filter((c) => c.type === "text").map((c) => c.text).join(""),
});

function transportOfArguments() {
  const [first, ...rest] = process.argv.slice(2);
  if (first === "--url") return new StreamableHTTPClientTransport(new URL(rest[0]));
  const [template, scenario] = rest;
  return new StdioClientTransport({ command: first, args: ["mcp", "serve", template, "--scenario", scenario] });
}

async function main() {
  const transport = transportOfArguments();
  const client = new Client({ name: "unfold-test", version: "1.0.0" });
  let heard;
  const changed = new Promise((resolve) => (heard = resolve));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard());
  await client.connect(transport);
  const seen = {
    server: client.getServerVersion().name,
    list_changed: Boolean(client.getServerCapabilities().tools?.listChanged),
  };
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  seen.before = await names();
  seen.hidden = said(await client.callTool({ name: "search", arguments: { query: "tokens" } }));
  seen.read = JSON.parse(said(await client.callTool({ name: "read_section", arguments: { section_key: "context" } })).text);
  // Unreferenced: a timer left waiting would keep node alive after the client is done.
  const late = new Promise((_, fail) => setTimeout(() => fail(new Error("no tools/list_changed")), 10000).unref());
  await Promise.race([changed, late]);
  seen.after = await names();
  seen.searched = said(await client.callTool({ name: "search", arguments: { query: "tokens" } }));
  await client.close();
  console.log(JSON.stringify(seen));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
