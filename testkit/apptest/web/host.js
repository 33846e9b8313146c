// The test host: what an MCP Apps host does, with the official pieces.
// An MCP client (Streamable HTTP, cross-origin: the server runs with
// --cors) lists the tools, calls the one that links an app
// (_meta.ui.resourceUri) as a model would, and reads the app's ui://
// resource. The app is shown in a sandbox proxy frame served from another
// origin (sandbox.js), which loads the HTML into its own sandboxed frame
// under a content security policy built from the resource's _meta.ui.csp.
// AppBridge (ext-apps' host side) speaks to the app over postMessage: it
// sends the tool's input and result, and the app's tools/call requests go
// to the server after the host's checks: the tool must be visible to apps,
// and a tool that may change data needs the user's confirmation.
//
// What the host saw is kept in window.__host for the test to check. The
// page's query names the server, the sandbox page and the era.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  buildAllowAttribute,
  getToolUiResourceUri,
  isToolVisibilityAppOnly,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const HOST = { name: "mcpdecl-test-host", version: "1.0.0" };
const params = new URLSearchParams(location.search);
const state = (window.__host = { protocolVersion: null, capabilities: null, tools: null, resources: null, read: null, result: null, calls: [], appMessages: [], errors: [], initialized: false });

function status(text) {
  document.getElementById("host-status").textContent = text;
}

// visibleToApps: a tool without a visibility list is visible to both.
function visibleToApps(tool) {
  const v = tool._meta?.ui?.visibility;
  return !Array.isArray(v) || v.includes("app");
}

// needsConfirmation follows the tool annotations' defaults: a tool that
// does not say it is read-only may change data, and is destructive unless
// it says otherwise.
function needsConfirmation(tool) {
  const a = tool.annotations ?? {};
  return a.readOnlyHint !== true && a.destructiveHint !== false;
}

async function main() {
  // era=modern pins the 2026-07-28 revision (server/discover, stateless);
  // otherwise the client speaks the 2025 revisions (initialize).
  const modern = params.get("era") === "modern";
  const client = new Client(HOST, modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(params.get("server"))));
  state.protocolVersion = client.getNegotiatedProtocolVersion() ?? null;
  state.capabilities = client.getServerCapabilities() ?? null;
  document.getElementById("server").textContent = `mcpdecl test host · ${client.getServerVersion()?.name ?? "server"}`;

  const listed = await client.listTools();
  state.tools = listed.tools;
  const tools = new Map(listed.tools.map((t) => [t.name, t]));
  const tool = listed.tools.find((t) => getToolUiResourceUri(t) && !isToolVisibilityAppOnly(t));
  if (!tool) throw new Error("no tool links an app");
  const uri = getToolUiResourceUri(tool);
  state.resources = (await client.listResources()).resources;

  // The model's call, then the app's page.
  const args = {};
  document.getElementById("call").textContent = `${tool.name}(${JSON.stringify(args)})`;
  const result = await client.callTool({ name: tool.name, arguments: args });
  state.result = result;
  const read = await client.readResource({ uri });
  state.read = read;
  const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
  if (content?.mimeType !== RESOURCE_MIME_TYPE || typeof content.text !== "string") {
    throw new Error(`${uri} is not an app page (${content?.mimeType})`);
  }
  const listedMeta = state.resources.find((r) => r.uri === uri)?._meta?.ui;
  const ui = content._meta?.ui ?? listedMeta ?? {};

  const frame = document.createElement("iframe");
  frame.id = "app";
  frame.title = tool.title ?? tool.name;
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  const allow = buildAllowAttribute(ui.permissions);
  if (allow) frame.setAttribute("allow", allow);
  if (ui.prefersBorder) frame.classList.add("border");
  frame.src = params.get("sandbox");
  document.getElementById("frame").append(frame);

  const bridge = new AppBridge(client, HOST, { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} }, {
    hostContext: { theme: "light", platform: "web", displayMode: "inline", locale: "en-US" },
  });
  bridge.addEventListener("sandboxready", () => {
    bridge.sendSandboxResourceReady({ html: content.text, sandbox: "allow-scripts", csp: ui.csp, permissions: ui.permissions });
  });
  bridge.addEventListener("sizechange", ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height) + 2}px`;
  });
  bridge.addEventListener("initialized", async () => {
    state.initialized = true;
    status("app ready");
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
  });
  // Every message the app sent (the sandbox proxy relays them), kept for
  // the test to check against the extension's schema.
  window.addEventListener("message", (event) => {
    const method = event.data?.method;
    if (event.source !== frame.contentWindow || (typeof method === "string" && method.startsWith("ui/notifications/sandbox-"))) return;
    state.appMessages.push(event.data);
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));

  // connect() forwards the app's tools/call straight to the server; a host
  // checks first.
  bridge.oncalltool = async (call, extra) => {
    const entry = { name: call.name, arguments: call.arguments ?? {}, confirmed: null, isError: null };
    state.calls.push(entry);
    const target = tools.get(call.name);
    if (!target) throw new Error(`unknown tool ${call.name}`);
    if (!visibleToApps(target)) throw new Error(`the tool ${call.name} is not available to apps`);
    if (needsConfirmation(target)) {
      entry.confirmed = confirm(`The app asks to run "${target.title ?? target.name}" with ${JSON.stringify(entry.arguments)}. Allow it?`);
      if (!entry.confirmed) {
        entry.isError = true;
        return { isError: true, content: [{ type: "text", text: "The user did not allow this call." }] };
      }
    }
    const answer = await client.callTool(call, { signal: extra.signal });
    entry.isError = answer.isError === true;
    return answer;
  };
  status("app loading");
}

main().catch((err) => {
  state.errors.push(String(err?.stack ?? err));
  status(`error: ${err}`);
});
