// A real OAuth 2.0 authorization server on 127.0.0.1 for tests:
// oauth2-mock-server (pinned in package-lock.json beside this file) signs
// the tokens, serves the JWKS, the OpenID Connect discovery document and
// the authorization endpoint (authorization_code with PKCE, which it
// checks), and this script adds what the tests of a resource server need:
//
//   - RFC 8707: the `resource` parameter of a token (or authorization)
//     request becomes the access token's `aud`; `scope` from the
//     authorization request is the granted scope of the code's token;
//   - RFC 8414 metadata at /.well-known/oauth-authorization-server (the same
//     document), unless options.rfc8414 is false;
//   - RFC 7591 dynamic client registration at /register (public clients
//     with PKCE, or clients with a secret); any client id is accepted,
//     so clients using a Client ID Metadata Document URL work too;
//   - RFC 9207: `iss` in the authorization response;
//   - RFC 7662 introspection at /introspect of the tokens it issued (JWT or
//     opaque), with HTTP basic client authentication;
//   - RFC 8693 token exchange at the token endpoint (grant_type
//     urn:ietf:params:oauth:grant-type:token-exchange), for the client
//     options.exchangeClient names: the subject_token must be an access
//     token this server signed (signature, issuer and expiry checked); the
//     new token keeps its `sub` (and its other claims, such as a tenant),
//     is for the requested `audience`/`resource` (those of
//     options.exchangeAudiences or /test/exchange-audiences when set,
//     else any) and names the client
//     in `act` (RFC 8693 §4.1) and `client_id`;
//   - test controls under /test/: mint an opaque token, revoke a token,
//     rotate the signing key (optionally retiring the old ones from the
//     JWKS), set claims added to every token, and count requests.
//
// Token requests may carry test-only parameters: `sub`, `claims` (a JSON
// object merged into the access token) and `expires_in` (seconds).
//
// Started by testkit/authtest (Go) with the environment:
//   AUTHSERVER_MODULES  the node_modules folder holding oauth2-mock-server
//   AUTHSERVER_OPTIONS  JSON: {alg, rfc8414, claims, introspectionClient: {id, secret},
//                       exchangeClient: {id, secret}, exchangeAudiences: [...]}
// It prints one JSON line {"issuer": ..., "kid": ...} when it listens, and
// exits when its standard input closes (its parent is gone).
import http from "node:http";
import { PassThrough } from "node:stream";
import path from "node:path";
import { createRequire } from "node:module";
import { randomBytes, randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";

const modules = process.env.AUTHSERVER_MODULES;
if (!modules) {
  console.error("AUTHSERVER_MODULES is not set");
  process.exit(2);
}
const require = createRequire(path.join(modules, "package.json"));
const { OAuth2Issuer, OAuth2Service } = await import(
  pathToFileURL(require.resolve("oauth2-mock-server")).href
);
// jose is oauth2-mock-server's own dependency (it signs with it).
const jose = await import(pathToFileURL(require.resolve("jose")).href);

const options = JSON.parse(process.env.AUTHSERVER_OPTIONS || "{}");
const alg = options.alg || "RS256";
const introspectionClient = options.introspectionClient || null;
let defaultClaims = options.claims || {};

const exchangeClient = options.exchangeClient || null;
let exchangeAudiences = options.exchangeAudiences || null;

const counts = { jwks: 0, metadata: 0, token: 0, introspect: 0, register: 0, exchange: 0 };
const grants = new Map(); // authorization code or refresh token → {scope, resource, clientId}
const issued = new Map(); // access token → its claims (for introspection)
const clients = new Map(); // registered client id → metadata

// ---------------------------------------------------------------- keys
// The mock's key store hands keys out round-robin; the tests want one
// current signing key (the newest) and retired keys gone from the JWKS.
const issuer = new OAuth2Issuer();
let currentKid = (await issuer.keys.generate(alg)).kid;
const retired = new Set();
const store = issuer.keys;
const storeGet = store.get.bind(store);
const storeToJSON = store.toJSON.bind(store);
store.get = (kid) => storeGet(kid ?? currentKid);
store.toJSON = (priv) => storeToJSON(priv).filter((k) => !retired.has(k.kid));

async function rotate(newAlg, retire) {
  const old = storeToJSON(false).map((k) => k.kid);
  currentKid = (await store.generate(newAlg || alg)).kid;
  if (retire) old.forEach((kid) => retired.add(kid));
  return { kid: currentKid, retired: retire ? old : [] };
}

// ---------------------------------------------------------------- service
const service = new OAuth2Service(issuer);

service.on("beforeWellKnownOpenIdConfiguration", (res) => {
  Object.assign(res.body, {
    registration_endpoint: `${issuer.url}/register`,
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    grant_types_supported: [...res.body.grant_types_supported, "refresh_token", TOKEN_EXCHANGE],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic"],
    // RFC 9207: the authorization response names the issuer (clients of
    // the 2026-07-28 revision check it).
    authorization_response_iss_parameter_supported: true,
    // Client ID Metadata Documents: a client may use the URL of its
    // metadata as client_id. This server checks no client id at all, so
    // it neither fetches nor checks the document.
    client_id_metadata_document_supported: true,
  });
});

service.on("beforeAuthorizeRedirect", (redirect, req) => {
  redirect.url.searchParams.set("iss", issuer.url);
  const code = redirect.url.searchParams.get("code");
  if (!code) return;
  grants.set(code, {
    scope: req.query.scope,
    resource: req.query.resource,
    clientId: req.query.client_id,
  });
});

// The mock signs the access token first and, for some grants, an ID token
// after it: only the first token of a request is the access token.
const signed = new WeakMap();

service.on("beforeTokenSigning", (token, req) => {
  const n = (signed.get(req) || 0) + 1;
  signed.set(req, n);
  if (n > 1) return; // the ID token keeps the mock's claims
  const body = req.body || {};
  const grant = grantOf(body);
  const p = token.payload;
  const resource = body.resource ?? grant?.resource;
  if (resource !== undefined) p.aud = resource;
  const scope = body.scope ?? grant?.scope;
  if (scope !== undefined) p.scope = scope;
  else delete p.scope;
  const clientId = clientIdOf(req, body) ?? grant?.clientId;
  if (clientId) p.client_id = clientId;
  if (body.grant_type === "client_credentials" && clientId) p.sub = clientId;
  if (typeof body.sub === "string") p.sub = body.sub;
  if (body.expires_in !== undefined) p.exp = p.iat + Number(body.expires_in);
  Object.assign(p, defaultClaims);
  if (typeof body.claims === "string") Object.assign(p, JSON.parse(body.claims));
  req.accessClaims = { ...p };
});

service.on("beforeResponse", (res, req) => {
  const body = req.body || {};
  const grant = grantOf(body);
  if (res.body.refresh_token && grant) grants.set(`rt:${res.body.refresh_token}`, grant);
  if (body.code) grants.delete(body.code);
  if (req.accessClaims) {
    res.body.scope = req.accessClaims.scope;
    issued.set(res.body.access_token, req.accessClaims);
  }
});

function grantOf(body) {
  if (body.grant_type === "authorization_code") return grants.get(body.code);
  if (body.grant_type === "refresh_token") return grants.get(`rt:${body.refresh_token}`);
  return undefined;
}

function clientIdOf(req, body) {
  const basic = basicAuth(req);
  if (basic) return basic.id;
  return typeof body.client_id === "string" ? body.client_id : undefined;
}

function basicAuth(req) {
  const h = req.headers.authorization || "";
  if (!h.toLowerCase().startsWith("basic ")) return null;
  const text = Buffer.from(h.slice(6).trim(), "base64").toString("utf8");
  const i = text.indexOf(":");
  if (i < 0) return null;
  return {
    id: decodeURIComponent(text.slice(0, i).replace(/\+/g, " ")),
    secret: decodeURIComponent(text.slice(i + 1).replace(/\+/g, " ")),
  };
}

// ---------------------------------------------------------------- RFC 8693
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
// Claims of the subject token that the exchanged token does not inherit:
// the new token has its own issuer, times, audience, id, client and actor.
const notInherited = new Set(["iss", "aud", "iat", "exp", "nbf", "jti", "client_id", "act", "scope", "azp"]);

async function tokenExchange(req, res, body) {
  counts.exchange++;
  const c = basicAuth(req) ?? (typeof body.client_id === "string" ? { id: body.client_id, secret: body.client_secret } : null);
  if (!exchangeClient || !c || c.id !== exchangeClient.id || c.secret !== exchangeClient.secret) {
    res.setHeader("WWW-Authenticate", 'Basic realm="token"');
    return send(res, 401, { error: "invalid_client", error_description: "unknown client or wrong secret" });
  }
  if (typeof body.subject_token !== "string" || body.subject_token_type !== ACCESS_TOKEN_TYPE) {
    return send(res, 400, { error: "invalid_request", error_description: `subject_token and subject_token_type ${ACCESS_TOKEN_TYPE} are required` });
  }
  if (body.requested_token_type !== undefined && body.requested_token_type !== ACCESS_TOKEN_TYPE) {
    return send(res, 400, { error: "invalid_request", error_description: "only access tokens are issued" });
  }
  let subject;
  try {
    const keys = jose.createLocalJWKSet({ keys: store.toJSON(false) });
    ({ payload: subject } = await jose.jwtVerify(body.subject_token, keys, { issuer: issuer.url }));
  } catch (err) {
    return send(res, 400, { error: "invalid_grant", error_description: `the subject_token is not valid: ${err.code || "unreadable"}` });
  }
  const targets = [body.audience, body.resource].flat().filter((x) => typeof x === "string");
  if (targets.length === 0) {
    return send(res, 400, { error: "invalid_target", error_description: "name the audience or resource the token is for" });
  }
  const refused = exchangeAudiences ? targets.filter((a) => !exchangeAudiences.includes(a)) : [];
  if (refused.length > 0) {
    return send(res, 400, { error: "invalid_target", error_description: `no tokens are issued for ${refused.join(", ")}` });
  }
  const expiresIn = body.expires_in !== undefined ? Number(body.expires_in) : 3600;
  const claims = {};
  for (const [k, v] of Object.entries(subject)) if (!notInherited.has(k)) claims[k] = v;
  const actor = { sub: c.id };
  if (subject.act) actor.act = subject.act;
  Object.assign(claims, {
    aud: targets.length === 1 ? targets[0] : targets,
    client_id: c.id,
    act: actor,
    jti: randomUUID(),
  });
  const scope = body.scope ?? subject.scope;
  if (scope !== undefined) claims.scope = scope;
  const token = await issuer.buildToken({
    expiresIn,
    scopesOrTransform: (_header, payload) => Object.assign(payload, claims),
  });
  issued.set(token, { iss: issuer.url, ...claims, exp: now() + expiresIn });
  return send(res, 200, {
    access_token: token,
    issued_token_type: ACCESS_TOKEN_TYPE,
    token_type: "Bearer",
    expires_in: expiresIn,
    ...(scope !== undefined ? { scope } : {}),
  });
}

// The token endpoint: an exchange is answered here, any other grant by
// the mock, which reads the body again from a copy.
async function tokenEndpoint(req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  const type = req.headers["content-type"] || "";
  const body = type.includes("application/x-www-form-urlencoded") ? Object.fromEntries(new URLSearchParams(raw.toString("utf8"))) : {};
  if (body.grant_type === TOKEN_EXCHANGE) return tokenExchange(req, res, body);
  const copy = new PassThrough();
  Object.assign(copy, { method: req.method, url: req.url, headers: req.headers });
  copy.end(raw);
  service.requestHandler(copy, res);
}

// ---------------------------------------------------------------- own routes
async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8");
  const type = req.headers["content-type"] || "";
  if (type.includes("application/json")) return text ? JSON.parse(text) : {};
  return Object.fromEntries(new URLSearchParams(text));
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(text);
}

const now = () => Math.floor(Date.now() / 1000);

const routes = {
  "POST /introspect": async (req, res) => {
    counts.introspect++;
    const body = await readBody(req);
    if (introspectionClient) {
      const c = basicAuth(req);
      if (!c || c.id !== introspectionClient.id || c.secret !== introspectionClient.secret) {
        res.setHeader("WWW-Authenticate", 'Basic realm="introspection"');
        return send(res, 401, { error: "invalid_client" });
      }
    }
    const claims = issued.get(body.token);
    if (!claims || (claims.exp !== undefined && claims.exp <= now())) return send(res, 200, { active: false });
    return send(res, 200, { active: true, token_type: "Bearer", ...claims });
  },
  "POST /register": async (req, res) => {
    counts.register++;
    const meta = await readBody(req);
    if (!Array.isArray(meta.redirect_uris) && !(meta.grant_types || []).includes("client_credentials")) {
      return send(res, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris is required" });
    }
    const method = meta.token_endpoint_auth_method || "none";
    const client = {
      ...meta,
      client_id: randomUUID(),
      client_id_issued_at: now(),
      token_endpoint_auth_method: method,
      grant_types: meta.grant_types || ["authorization_code", "refresh_token"],
      response_types: meta.response_types || ["code"],
    };
    if (method !== "none") {
      client.client_secret = randomBytes(24).toString("base64url");
      client.client_secret_expires_at = 0;
    }
    clients.set(client.client_id, client);
    return send(res, 201, client);
  },
  "POST /test/opaque": async (req, res) => {
    const b = await readBody(req);
    const token = randomBytes(32).toString("base64url");
    const iat = now();
    const claims = {
      iss: issuer.url,
      iat,
      exp: iat + (b.expires_in ?? 3600),
      ...(b.resource !== undefined ? { aud: b.resource } : {}),
      ...(b.scope !== undefined ? { scope: b.scope } : {}),
      sub: b.sub ?? "opaque-user",
      client_id: b.client_id ?? "test-client",
      ...defaultClaims,
      ...(b.claims || {}),
    };
    issued.set(token, claims);
    return send(res, 200, { access_token: token });
  },
  "POST /test/revoke": async (req, res) => {
    const b = await readBody(req);
    return send(res, 200, { revoked: issued.delete(b.token) });
  },
  "POST /test/rotate": async (req, res) => {
    const b = await readBody(req);
    return send(res, 200, await rotate(b.alg, Boolean(b.retire)));
  },
  "POST /test/claims": async (req, res) => {
    const b = await readBody(req);
    defaultClaims = b.claims || {};
    return send(res, 200, { claims: defaultClaims });
  },
  "POST /test/exchange-audiences": async (req, res) => {
    const b = await readBody(req);
    exchangeAudiences = b.audiences || null;
    return send(res, 200, { audiences: exchangeAudiences });
  },
  "GET /test/stats": async (req, res) => send(res, 200, counts),
};

const server = http.createServer((req, res) => {
  const pathname = new URL(req.url, "http://127.0.0.1").pathname;
  const own = routes[`${req.method} ${pathname}`];
  if (own) {
    own(req, res).catch((err) => send(res, 400, { error: "invalid_request", error_description: String(err.message) }));
    return;
  }
  if (req.method === "GET" && pathname === "/jwks") counts.jwks++;
  if (req.method === "POST" && pathname === "/token") {
    counts.token++;
    tokenEndpoint(req, res).catch((err) => send(res, 400, { error: "invalid_request", error_description: String(err.message) }));
    return;
  }
  if (req.method === "GET" && pathname === "/.well-known/openid-configuration") counts.metadata++;
  if (req.method === "GET" && pathname === "/.well-known/oauth-authorization-server") {
    if (options.rfc8414 === false) {
      res.writeHead(404).end();
      return;
    }
    counts.metadata++;
    req.url = "/.well-known/openid-configuration";
  }
  service.requestHandler(req, res);
});

server.listen(options.port || 0, "127.0.0.1", () => {
  issuer.url = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(JSON.stringify({ issuer: issuer.url, kid: currentKid }) + "\n");
});

// The parent holds our standard input open; when it goes, so do we.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => process.exit(0));
