// The sandbox proxy: the outer frame of the MCP Apps double frame, on an
// origin other than the host's, so the app can reach neither the host's
// page nor its storage. It tells the host it is ready
// (ui/notifications/sandbox-proxy-ready), receives the app's HTML with the
// resource's CSP and permissions (ui/notifications/sandbox-resource-ready),
// loads it into an inner frame sandboxed without allow-same-origin, under a
// content security policy built from the declared domains, and relays
// every other message between the host and the app.
const PROXY_READY = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";

if (window.self === window.top) throw new Error("the sandbox proxy runs inside the host's frame only");
const hostOrigin = new URL(document.referrer).origin;
let inner = null;

// A declared domain is an origin, optionally with a wildcard subdomain
// (https://*.example.com). Anything else (a keyword, a path, a ";") could
// widen or rewrite the policy, so it is left out.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

function sources(list, fallback) {
  const ok = (Array.isArray(list) ? list : []).filter((d) => typeof d === "string" && ORIGIN.test(d));
  for (const d of Array.isArray(list) ? list : []) {
    if (!ok.includes(d)) console.warn(`sandbox: ignoring the declared domain ${JSON.stringify(d)}: not an origin`);
  }
  return ok.length ? ok.join(" ") : fallback;
}

// policyFor maps McpUiResourceCsp to CSP directives, as the extension
// describes: resourceDomains for scripts, styles, images, fonts and media
// (inline code allowed: an app page is one file), connectDomains for
// fetch/XHR/WebSocket (none when omitted), frameDomains for nested frames
// (none when omitted), baseUriDomains for <base> ('self' when omitted).
export function policyFor(csp = {}) {
  const res = sources(csp.resourceDomains, "");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`.trim(),
    `style-src 'unsafe-inline' ${res}`.trim(),
    `img-src data: blob: ${res}`.trim(),
    `font-src data: ${res}`.trim(),
    `media-src data: blob: ${res}`.trim(),
    `connect-src ${sources(csp.connectDomains, "'none'")}`,
    `frame-src ${sources(csp.frameDomains, "'none'")}`,
    `base-uri ${sources(csp.baseUriDomains, "'self'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

function attr(s) {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// withPolicy puts the policy first in the document, before any script.
function withPolicy(html, policy) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attr(policy)}" data-host-policy>`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  return meta + html;
}

const PERMISSIONS = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };

function load({ html, sandbox, csp, permissions }) {
  inner?.remove();
  inner = document.createElement("iframe");
  inner.setAttribute("sandbox", sandbox || "allow-scripts");
  const allow = Object.keys(permissions ?? {}).map((p) => PERMISSIONS[p]).filter(Boolean).join("; ");
  if (allow) inner.setAttribute("allow", allow);
  inner.srcdoc = withPolicy(html, policyFor(csp));
  document.body.append(inner);
}

window.addEventListener("message", (event) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    const method = event.data?.method;
    if (method === RESOURCE_READY) return load(event.data.params ?? {});
    if (typeof method === "string" && method.startsWith("ui/notifications/sandbox-")) return;
    // The app's frame has an opaque origin: "*" is the only target that reaches it.
    inner?.contentWindow?.postMessage(event.data, "*");
  } else if (inner && event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: "2.0", method: PROXY_READY, params: {} }, hostOrigin);
