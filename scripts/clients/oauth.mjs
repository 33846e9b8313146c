#!/usr/bin/env node
// OAuth flow of real TypeScript MCP clients against `mcpdecl serve --http`
// with an auth block:
//
//   MCPDECL_BIN=path/to/mcpdecl MCPDECL_ROOT=repo \
//   AUTHSERVER_MODULES=.tools/authserver/node_modules node oauth.mjs
//
// Run by scripts/conformance.sh from .tools/clients. It starts the test
// authorization server (testkit/authtest/testdata/authserver/server.mjs:
// oauth2-mock-server with dynamic registration, PKCE and RFC 8707
// audiences), serves a configuration whose tools need scopes, and lets
// each client (SDK v1 1.32.2 at 2025-11-25, v2 client 2.4.0 settling on
// 2026-07-28) find its own way in with its OAuth client provider: a 401
// names the protected-resource metadata, which names the authorization
// server, whose metadata gives the registration, authorization and token
// endpoints; the client registers, is sent to authorize with PKCE (the
// test server consents at once: the redirect is followed here, not in a
// browser), exchanges the code for a token for this resource, and calls.
// A tool needing a scope the token lacks answers 403 insufficient_scope,
// and the client authorizes again asking for it (step-up). Exit 1 on any
// failed check. Loopback only.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';

const { MCPDECL_BIN: BIN, MCPDECL_ROOT: ROOT, AUTHSERVER_MODULES: MODULES } = process.env;
if (!BIN || !ROOT || !MODULES) {
  console.error('set MCPDECL_BIN, MCPDECL_ROOT and AUTHSERVER_MODULES');
  process.exit(2);
}
const REDIRECT = 'http://127.0.0.1:1/callback'; // never opened: the redirect is read, not followed

let failures = 0;
let passes = 0;
function check(label, cond, detail) {
  if (cond) {
    passes++;
    return;
  }
  failures++;
  console.log(`    FAIL ${label}` + (detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail).slice(0, 400)}`));
}
const texts = (content) => (content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

// ---------------------------------------------------------------- servers
async function startAuthServer() {
  const child = spawn(process.execPath, [join(ROOT, 'testkit/authtest/testdata/authserver/server.mjs')], {
    env: { ...process.env, AUTHSERVER_MODULES: MODULES, AUTHSERVER_OPTIONS: '{}' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the authorization server exited (${code})`)));
  });
  return { issuer: JSON.parse(line).issuer, stop: () => child.stdin.end() };
}

async function startMCP(issuer, dir) {
  const port = await freePort();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const config = join(dir, 'notes.hcl');
  writeFileSync(config, `
auth {
  resource              = "${url}"
  authorization_servers = ["${issuer}"]
  scope "notes:read" {
    description = "Read notes"
  }
  scope "notes:admin" {
    description = "Administer notes"
  }
}
tool "whoami" {
  description = "Who is calling."
  scopes      = ["notes:read"]
  content "text" {
    text = "you are \${auth.subject}"
  }
}
tool "purge" {
  description = "Delete every note."
  scopes      = ["notes:admin"]
  content "text" {
    text = "purged by \${auth.subject}"
  }
}
`);
  const child = spawn(BIN, ['serve', '--http', `127.0.0.1:${port}`, config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(new URL('/healthz', url)).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`mcpdecl serve exited: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    log: () => stderr,
    stop: () => new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', r);
      child.kill('SIGTERM');
    }),
  };
}

// ---------------------------------------------------------------- the client side
// A provider keeping everything in memory. Sending the user to the
// authorization URL is a fetch here: the test server consents at once and
// answers with the redirect to REDIRECT, carrying the code. The first
// consent grants only notes:read, as a user granting less than asked
// would (a client asks for every scope the metadata lists), so that the
// token of the first connection lacks notes:admin.
class TestProvider {
  constructor() {
    this.authorizations = []; // each authorization URL the client asked for
  }
  saveDiscoveryState(state) { this.discovery = state; }
  discoveryState() { return this.discovery; }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return {
      client_name: 'mcpdecl-oauth-test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) {
    this.authorizations.push(new URL(url));
    const consent = new URL(url);
    if (this.authorizations.length === 1) consent.searchParams.set('scope', 'notes:read');
    const res = await fetch(consent, { redirect: 'manual' });
    const location = new URL(res.headers.get('location'));
    this.callback = location.searchParams;
  }
  // takeCallback returns the code and issuer of the last authorization, once.
  takeCallback() {
    const cb = this.callback;
    this.callback = undefined;
    return cb;
  }
}

const isUnauthorized = (e) => e?.constructor?.name === 'UnauthorizedError' || /unauthori[sz]ed/i.test(String(e?.message));

async function finish(transport, era, cb) {
  if (era === 'v1') await transport.finishAuth(cb.get('code'));
  else await transport.finishAuth(cb.get('code'), cb.get('iss') ?? undefined);
}

// connectWithOAuth connects; when the client is sent to authorize, it
// completes the authorization and connects again, as an application does
// once its redirect URI is called.
async function connectWithOAuth(era, url, provider) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const t = era === 'v1' ? new V1Http(url, { authProvider: provider }) : new V2Http(url, { authProvider: provider });
    const c = era === 'v1'
      ? new V1Client({ name: 'mcpdecl-oauth-v1', version: '0.0.1' })
      : new V2Client({ name: 'mcpdecl-oauth-v2', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await c.connect(t);
      return { c, t, url };
    } catch (e) {
      const cb = provider.takeCallback();
      if (!isUnauthorized(e) || !cb) throw e;
      await finish(t, era, cb);
    }
  }
  throw new Error('no connection after 3 authorizations');
}

// callWithStepUp calls a tool; when the client is sent to authorize again
// (a missing scope), it completes that authorization and calls again.
//
// SDK v1 answers a 403 insufficient_scope by refreshing its token, which
// keeps the scopes it had, and then gives up ("403 after trying
// upscoping"); its application must drop the tokens and authorize again,
// which is what this does for it.
async function callWithStepUp(era, conn, provider, name) {
  try {
    return await conn.c.callTool({ name, arguments: {} });
  } catch (e) {
    if (era === 'v1' && /403 after trying upscoping/.test(String(e?.message))) {
      provider.saved = undefined;
      await conn.c.close();
      Object.assign(conn, await connectWithOAuth(era, conn.url, provider));
      return await conn.c.callTool({ name, arguments: {} });
    }
    const cb = provider.takeCallback();
    if (!isUnauthorized(e) || !cb) throw e;
    await finish(conn.t, era, cb);
    return await conn.c.callTool({ name, arguments: {} });
  }
}

async function flow(era, mcp) {
  const provider = new TestProvider();
  const conn = await connectWithOAuth(era, mcp.url, provider);
  const first = provider.authorizations[0];
  check(`${era}: authorized once to connect`, provider.authorizations.length === 1, provider.authorizations.map(String));
  check(`${era}: registered dynamically`, typeof provider.info?.client_id === 'string' && provider.info.client_id !== '');
  check(`${era}: PKCE S256`, first?.searchParams.get('code_challenge_method') === 'S256' && !!first?.searchParams.get('code_challenge'));
  check(`${era}: the token is for this server (RFC 8707 resource)`, first?.searchParams.get('resource') === mcp.url.href, first?.searchParams.get('resource'));
  if (era === 'v2') check('v2: settles on 2026-07-28', conn.c.getNegotiatedProtocolVersion() === '2026-07-28', conn.c.getNegotiatedProtocolVersion());
  const tools = (await conn.c.listTools()).tools.map((t) => t.name).sort();
  check(`${era}: every tool is listed`, JSON.stringify(tools) === '["purge","whoami"]', tools);
  const who = await conn.c.callTool({ name: 'whoami', arguments: {} });
  check(`${era}: whoami reads the token's subject`, !who.isError && /^you are \S+$/.test(texts(who.content)), who);

  const before = provider.authorizations.length;
  const purged = await callWithStepUp(era, conn, provider, 'purge');
  const stepUp = provider.authorizations[before];
  const scope = (stepUp?.searchParams.get('scope') ?? '').split(' ');
  check(`${era}: a 403 insufficient_scope sends the client to authorize again, for notes:read and notes:admin`,
    scope.includes('notes:admin') && scope.includes('notes:read'), stepUp && String(stepUp));
  check(`${era}: purge runs after the step-up`, !purged.isError && texts(purged.content).startsWith('purged by '), purged);
  await conn.c.close();
}

async function refusals(mcp) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const challenge = res.headers.get('www-authenticate') ?? '';
  check('no token: 401', res.status === 401, res.status);
  check('no token: the challenge names the metadata', /resource_metadata="[^"]+"/.test(challenge), challenge);
  const prm = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', mcp.url))).json();
  check('metadata: resource', prm.resource === mcp.url.href, prm);
}

// ---------------------------------------------------------------- main
const dir = mkdtempSync(join(tmpdir(), 'mcpdecl-oauth-'));
const as = await startAuthServer();
const mcp = await startMCP(as.issuer, dir);
try {
  await refusals(mcp);
  for (const era of ['v1', 'v2']) {
    console.log(`  ${era}: discovery, registration, authorization code with PKCE, step-up`);
    try {
      await flow(era, mcp);
    } catch (e) {
      check(`${era}: flow`, false, e?.stack ?? String(e));
    }
  }
} finally {
  await mcp.stop();
  as.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`oauth: ${passes} checks passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
