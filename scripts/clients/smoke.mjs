#!/usr/bin/env node
// Interop smoke test: real TypeScript MCP clients against mcpdecl.
//
//   MCPDECL_BIN=path/to/mcpdecl MCPDECL_ROOT=repo node smoke.mjs
//
// Run by scripts/conformance.sh from .tools/clients (where package-lock.json
// of this folder is installed with npm ci). Clients:
//   v1  @modelcontextprotocol/sdk 1.32.2: always initialize at 2025-11-25
//   v2  @modelcontextprotocol/client 2.4.0 with versionNegotiation 'auto':
//       probes server/discover and should settle on 2026-07-28
// Each client talks to examples/orders.hcl (SQLite, created from orders.sql),
// examples/library.hcl (its HTTP backend is a small fake catalogue served
// here on 127.0.0.1) and the conformance fixture
// testdata/conformance/everything.hcl (exact contract values, progress and
// log notifications on the wire), over stdio and over Streamable HTTP (the
// fixture with --legacy-sessions, which 2025 clients need for
// logging/setLevel to last beyond one request). Exit 1 on any failed
// assertion. Loopback only.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';

const BIN = process.env.MCPDECL_BIN;
const ROOT = process.env.MCPDECL_ROOT;
if (!BIN || !ROOT) {
  console.error('set MCPDECL_BIN and MCPDECL_ROOT');
  process.exit(2);
}
const ORDERS = join(ROOT, 'examples/orders.hcl');
const LIBRARY = join(ROOT, 'examples/library.hcl');
const EVERYTHING = join(ROOT, 'testdata/conformance/everything.hcl');
const POLICY = readFileSync(join(ROOT, 'examples/policy.md'), 'utf8');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

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

// ---------------------------------------------------------------- helpers
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}
async function freePort() {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

// A fake library catalogue for library.hcl's http backend.
const BOOKS = [
  { isbn: '9780000000001', title: 'Small Rivers', author: 'A. Brook' },
  { isbn: '9780000000002', title: 'Rivers of the North', author: 'B. Delta' },
];
const catalogue = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  res.setHeader('content-type', 'application/json');
  if (req.method === 'GET' && url.pathname === '/books') {
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const limit = Number(url.searchParams.get('_limit') ?? 10);
    res.end(JSON.stringify(BOOKS.filter((b) => b.title.toLowerCase().includes(q)).slice(0, limit)));
    return;
  }
  const m = url.pathname.match(/^\/books\/(\d{13})$/);
  if (req.method === 'GET' && m) {
    const book = BOOKS.find((b) => b.isbn === m[1]);
    res.statusCode = book ? 200 : 404;
    res.end(JSON.stringify(book ?? { error: 'not found' }));
    return;
  }
  res.statusCode = 404;
  res.end('{"error":"not found"}');
});
const catalogueURL = `http://127.0.0.1:${await listen(catalogue)}`;

const serveArgs = {
  orders: [ORDERS],
  library: ['--var', `base_url=${catalogueURL}`, LIBRARY],
  everything: [EVERYTHING],
};

// Starts `mcpdecl serve --http` on a free loopback port.
async function startHTTP(config, flags = []) {
  const port = await freePort();
  const child = spawn(BIN, ['serve', '--http', `127.0.0.1:${port}`, ...flags, ...serveArgs[config]], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).then(() => true, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`mcpdecl serve exited: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stop: () => new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', r);
      child.kill('SIGTERM');
    }),
  };
}

// Records every message from the server as it arrives, in order, and the
// protocolVersion of the initialize result (SDK v1 has no getter for the
// negotiated version). Notifications are judged on this wire record: the
// SDKs handle a notification a microtask later than a response, so a client
// callback may miss a notification that arrived, in order, in the same read
// as the response.
function tap(transport, seen) {
  let handler;
  seen.messages = [];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler = fn && ((msg, extra) => {
        seen.messages.push(msg);
        if (msg?.result?.protocolVersion) seen.version = msg.result.protocolVersion;
        return fn(msg, extra);
      });
    },
  });
}

// The notifications of one method that arrived before the response whose
// first text content is resultText, since the wire record was last cleared.
function notesBefore(seen, method, resultText) {
  const end = seen.messages.findIndex((m) => m.id !== undefined && m.result?.content?.[0]?.text === resultText);
  return end < 0 ? null : seen.messages.slice(0, end).filter((m) => m.method === method).map((m) => m.params);
}

// ---------------------------------------------------------------- clients
async function connect(era, transportKind, config, http) {
  const seen = {};
  if (era === 'v1') {
    const t = transportKind === 'stdio'
      ? new V1Stdio({ command: BIN, args: ['serve', ...serveArgs[config]], cwd: ROOT, stderr: 'pipe' })
      : new V1Http(http.url);
    tap(t, seen);
    const c = new V1Client({ name: 'mcpdecl-smoke-v1', version: '0.0.1' });
    await c.connect(t);
    return { c, seen, version: () => seen.version ?? t.protocolVersion };
  }
  const t = transportKind === 'stdio'
    ? new V2Stdio({ command: BIN, args: ['serve', ...serveArgs[config]], cwd: ROOT, stderr: 'pipe' })
    : new V2Http(http.url);
  tap(t, seen);
  const c = new V2Client({ name: 'mcpdecl-smoke-v2', version: '0.0.1' }, { versionNegotiation: { mode: 'auto' } });
  await c.connect(t);
  return { c, seen, version: () => c.getNegotiatedProtocolVersion() };
}

const wantVersion = { v1: '2025-11-25', v2: '2026-07-28' };

async function ordersChecks(c) {
  const tools = (await c.listTools()).tools.map((t) => t.name).sort();
  check('tools/list names', JSON.stringify(tools) === '["open_orders","order_totals"]', tools);

  const open = await c.callTool({ name: 'open_orders', arguments: { status: 'open' } });
  check('open_orders status=open text', texts(open.content) === 'Ada: 2\nBrian: 1\nChen: 1', open);
  const customers = open.structuredContent?.customers;
  check('open_orders structuredContent', Array.isArray(customers) &&
    JSON.stringify(customers.map((r) => [r.customer, r.n])) === '[["Ada",2],["Brian",1],["Chen",1]]', open.structuredContent);
  check('open_orders not an error', !open.isError, open);

  const bad = await c.callTool({ name: 'open_orders', arguments: { status: 'lost' } });
  check('open_orders status=lost is an error result', bad.isError === true && texts(bad.content).length > 0, bad);

  const totals = await c.callTool({ name: 'order_totals', arguments: { since: '2026-10-05' } });
  const t = texts(totals.content);
  const rows = totals.structuredContent?.rows ?? [];
  check('order_totals since 2026-10-05, largest first', !totals.isError &&
    JSON.stringify(rows.map((r) => [r.customer, r.total])) === '[["Dolores",990],["Chen",74.1],["Ada",60],["Brian",12]]' &&
    t.indexOf('Dolores') < t.indexOf('Brian'), totals);
  const none = await c.callTool({ name: 'order_totals', arguments: { since: '2030-01-01' } });
  check('order_totals since 2030 is the error message', none.isError === true && texts(none.content).startsWith('No orders since 2030-01-01'), none);

  const resources = (await c.listResources()).resources;
  check('resources/list has schema://orders', resources.some((r) => r.uri === 'schema://orders' && r.name === 'Orders table'), resources);
  const schema = await c.readResource({ uri: 'schema://orders' });
  check('read schema://orders', schema.contents?.[0]?.text?.includes('CREATE TABLE') && schema.contents[0].mimeType === 'text/plain', schema);

  const templates = (await c.listResourceTemplates()).resourceTemplates;
  check('resources/templates/list has orders://{id}', templates.some((r) => r.uriTemplate === 'orders://{id}'), templates);
  const order = await c.readResource({ uri: 'orders://3' });
  let row;
  try { row = JSON.parse(order.contents?.[0]?.text ?? ''); } catch { row = undefined; }
  check('read orders://3', row?.customer === 'Brian' && row?.status === 'open' && order.contents[0].uri === 'orders://3', order);

  const prompts = (await c.listPrompts()).prompts;
  check('prompts/list has aggregate_question', prompts.some((p) => p.name === 'aggregate_question' && p.arguments?.[0]?.name === 'question'), prompts);
  const p = await c.getPrompt({ name: 'aggregate_question', arguments: { question: 'Who spent most?' } });
  check('prompts/get aggregate_question', p.messages?.length === 5 && p.messages[4].role === 'user' &&
    p.messages[4].content?.text === 'Who spent most? Use only the order tools; never guess numbers.', p);
}

async function libraryChecks(c) {
  const tools = (await c.listTools()).tools.map((t) => t.name).sort();
  check('tools/list names', JSON.stringify(tools) === '["checkout","search"]', tools);
  const found = await c.callTool({ name: 'search', arguments: { query: 'rivers' } });
  check('search rivers', !found.isError && texts(found.content) === 'Small Rivers by A. Brook\nRivers of the North by B. Delta', found);

  const policy = await c.readResource({ uri: 'library://policy' });
  check('read library://policy', policy.contents?.[0]?.text === POLICY && policy.contents[0].mimeType === 'text/markdown', policy);
  const book = await c.readResource({ uri: 'library://books/9780000000001' });
  check('read library://books/{isbn}', (book.contents?.[0]?.text ?? '').includes('Small Rivers'), book);

  const p = await c.getPrompt({ name: 'reading_list', arguments: { topic: 'rivers' } });
  const [m1, m2] = p.messages ?? [];
  check('prompts/get reading_list text', m1?.content?.text === 'Make me a reading list about rivers from books the library has.', p);
  check('prompts/get reading_list embedded policy', m2?.content?.type === 'resource' &&
    m2.content.resource?.uri === 'library://policy' && m2.content.resource?.text === POLICY, m2);
}

// The conformance fixture, checked against the exact values of the fixture
// contract (the suite itself only checks the shape of most answers).
async function everythingChecks(c, era, seen) {
  const call = (name, args, opts) => era === 'v1'
    ? c.callTool(args === undefined ? { name } : { name, arguments: args }, undefined, opts)
    : c.callTool(args === undefined ? { name } : { name, arguments: args }, opts);

  const simple = await call('test_simple_text');
  check('test_simple_text', !simple.isError && texts(simple.content) === 'This is a simple text response for testing.', simple);
  const image = await call('test_image_content', {});
  check('test_image_content', image.content?.[0]?.type === 'image' && image.content[0].data === PNG && image.content[0].mimeType === 'image/png', image);
  const audio = await call('test_audio_content', {});
  check('test_audio_content', audio.content?.[0]?.type === 'audio' && audio.content[0].data === WAV && audio.content[0].mimeType === 'audio/wav', audio);
  const emb = await call('test_embedded_resource', {});
  const r = emb.content?.[0]?.resource;
  check('test_embedded_resource', emb.content?.[0]?.type === 'resource' && r?.uri === 'test://embedded-resource' &&
    r?.mimeType === 'text/plain' && r?.text === 'This is an embedded resource content.', emb);
  const mixed = await call('test_multiple_content_types', {});
  const [m0, m1, m2] = mixed.content ?? [];
  let json;
  try { json = JSON.parse(m2?.resource?.text ?? ''); } catch { json = undefined; }
  check('test_multiple_content_types', mixed.content?.length === 3 && m0?.text === 'Multiple content types test:' &&
    m1?.type === 'image' && m1?.mimeType === 'image/png' && m2?.resource?.uri === 'test://mixed-content-resource' &&
    m2?.resource?.mimeType === 'application/json' && json?.test === 'data' && json?.value === 123, mixed);
  const err = await call('test_error_handling', {});
  check('test_error_handling', err.isError === true && texts(err.content) === 'This tool intentionally returns an error for testing', err);

  seen.messages.length = 0;
  const callbacks = [];
  const prog = await call('test_tool_with_progress', {}, { onprogress: (p) => callbacks.push(p.progress) });
  const progress = notesBefore(seen, 'notifications/progress', 'Progress test completed') ?? [];
  const token = progress[0]?.progressToken;
  check('test_tool_with_progress: 0, 50, 100 of 100 before the result', !prog.isError && token !== undefined &&
    progress.every((p) => p.progressToken === token) &&
    JSON.stringify(progress.map((p) => [p.progress, p.total])) === '[[0,100],[50,100],[100,100]]', { progress, prog });
  check('test_tool_with_progress: onprogress called', callbacks.length >= 1 && callbacks[0] === 0, callbacks);

  if (era === 'v1') { // logging/setLevel exists only in the 2025 era
    c.setNotificationHandler(LoggingMessageNotificationSchema, () => {});
    await c.setLoggingLevel('debug');
    seen.messages.length = 0;
    const logged = await call('test_tool_with_logging', {});
    const logs = notesBefore(seen, 'notifications/message', 'Tool with logging executed successfully') ?? [];
    check('test_tool_with_logging: 3 info log messages before the result', !logged.isError &&
      JSON.stringify(logs.map((l) => l.data)) === '["Tool execution started","Tool processing data","Tool execution completed"]' &&
      logs.every((l) => l.level === 'info'), { logs, logged });
  }

  const tpl = await c.readResource({ uri: 'test://template/123/data' });
  let data;
  try { data = JSON.parse(tpl.contents?.[0]?.text ?? ''); } catch { data = undefined; }
  check('read test://template/123/data', tpl.contents?.[0]?.mimeType === 'application/json' &&
    JSON.stringify(data) === JSON.stringify({ data: 'Data for ID: 123', id: '123', templateTest: true }), tpl);
  const bin = await c.readResource({ uri: 'test://static-binary' });
  check('read test://static-binary', bin.contents?.[0]?.blob === PNG && bin.contents[0].mimeType === 'image/png', bin);

  const args = await c.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'testValue1', arg2: 'testValue2' } });
  check('prompt test_prompt_with_arguments', args.messages?.[0]?.content?.text === "Prompt with arguments: arg1='testValue1', arg2='testValue2'", args);
  const er = await c.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } });
  const res = er.messages?.[0]?.content;
  check('prompt test_prompt_with_embedded_resource', res?.type === 'resource' && res.resource?.uri === 'test://example-resource' &&
    res.resource?.mimeType === 'text/plain' && res.resource?.text === 'Embedded resource content for testing.', er);
  const done = await c.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
  const values = done.completion?.values ?? [];
  check('completion/complete arg1 "test"', values.includes('testValue1') && values.every((v) => v.startsWith('test')), done);
}

const checks = { orders: ordersChecks, library: libraryChecks, everything: everythingChecks };
// MCPDECL_SMOKE_EVERYTHING_URL: test an everything.hcl endpoint served
// elsewhere (replicas behind a proxy) instead of starting one;
// MCPDECL_SMOKE_ONLY: run only the cases whose label contains it.
const external = (url) => ({ url: new URL(url), stop: async () => {} });
const ONLY = process.env.MCPDECL_SMOKE_ONLY ?? '';
const wants = (config) => !ONLY || ONLY.includes(config);
const http = {
  orders: wants('orders') ? await startHTTP('orders') : null,
  library: wants('library') ? await startHTTP('library') : null,
  everything: process.env.MCPDECL_SMOKE_EVERYTHING_URL ? external(process.env.MCPDECL_SMOKE_EVERYTHING_URL) : await startHTTP('everything'),
};

// stdio first with v1: the first orders server creates examples/orders.db.
const cases = [];
for (const config of ['orders', 'library', 'everything']) {
  for (const kind of ['stdio', 'http']) {
    for (const era of ['v1', 'v2']) cases.push({ config, kind, era });
  }
}
try {
  for (const { config, kind, era } of cases) {
    const label = `${era} ${kind} ${config}`;
    if (!label.includes(ONLY)) continue;
    const before = failures;
    const t0 = Date.now();
    let session;
    let version = 'not connected';
    try {
      session = await connect(era, kind, config, http[config]);
      version = session.version();
      check('negotiated protocol version', version === wantVersion[era], `got ${version}, want ${wantVersion[era]}`);
      await checks[config](session.c, era, session.seen);
    } catch (e) {
      check('no exception', false, e?.stack ?? String(e));
    } finally {
      await session?.c.close().catch(() => {});
    }
    console.log(`  ${failures === before ? 'PASS' : 'FAIL'} ${label} (${version}, ${Date.now() - t0} ms)`);
  }
} finally {
  await Promise.all(Object.values(http).filter(Boolean).map((h) => h.stop()));
  catalogue.close();
}
console.log(`smoke: ${passes} assertions passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
