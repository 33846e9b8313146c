// Tasks through the meta-tool call_tool with a real TypeScript client:
// @modelcontextprotocol/sdk 1.32.2 (2025-11-25, its experimental tasks),
// run by TestToolsetTasksTypeScript against the dynamic toolset "work" of
// toolsetTasksConfig.
//
//   MCP_URL=... SLEEP_SECONDS=... SDK_MODULES=.tools/clients/node_modules node toolset-tasks.mjs
//
// Prints one line per failed check ("FAIL ...") and exits 1 if any.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { MCP_URL, SLEEP_SECONDS, SDK_MODULES } = process.env;
const sdk = (file) => import(pathToFileURL(join(SDK_MODULES, '@modelcontextprotocol/sdk/dist/esm', file)).href);
const { Client } = await sdk('client/index.js');
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
const { CallToolResultSchema } = await sdk('types.js');

let failures = 0;
function check(label, ok, detail) {
  if (!ok) {
    failures++;
    console.log(`FAIL ${label}: ${JSON.stringify(detail)}`);
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// sleepers counts the processes `sleep SLEEP_SECONDS` (the server's child).
function sleepers() {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'latin1') === `sleep\0${SLEEP_SECONDS}\0`) n++;
    } catch {}
  }
  return n;
}
async function waitSleepers(want) {
  for (let i = 0; i < 200 && sleepers() !== want; i++) await sleep(50);
  return sleepers() === want;
}

const client = new Client({ name: 'toolset-tasks-ts', version: '1.32.2' });
await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL)));
check('protocol version', client.transport.protocolVersion === '2025-11-25', client.transport.protocolVersion);
const { tools } = await client.listTools();
const callTool = tools.find((t) => t.name === 'call_tool');
check('call_tool may run as a task', callTool?.execution?.taskSupport === 'optional', tools);

// runTask asks for a task, follows it to its end with the client's
// polling (tasks/get), and returns its id and final result.
async function runTask(name, args) {
  let id;
  let result;
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60000 } });
  for await (const m of stream) {
    if (m.type === 'taskCreated') id = m.task.taskId;
    if (m.type === 'result') result = m.result;
    if (m.type === 'error') check(`${name} ${JSON.stringify(args)} as a task`, false, String(m.error));
  }
  check(`${name} became a task`, typeof id === 'string' && id !== '', id);
  return { id, result };
}
const shape = (r) => JSON.stringify({ content: r?.content, structuredContent: r?.structuredContent, isError: r?.isError ?? false });

for (const [tool, args] of [['noted', { word: 'later' }], ['must_task', {}]]) {
  const direct = await runTask(tool, args);
  const meta = await runTask('call_tool', { name: tool, arguments: args });
  check(`${tool}: the result through call_tool is the direct task's`, direct.result?.content?.length > 0 && shape(direct.result) === shape(meta.result), [direct.result, meta.result]);
  const got = await client.experimental.tasks.getTask(meta.id);
  check(`${tool}: tasks/get`, got.status === 'completed', got);
  const fetched = await client.experimental.tasks.getTaskResult(meta.id, CallToolResultSchema);
  check(`${tool}: tasks/result`, shape(fetched) === shape(direct.result), fetched);
}

// A running task of the sleeper, through call_tool, cancelled.
let id;
for await (const m of client.experimental.tasks.callToolStream(
  { name: 'call_tool', arguments: { name: 'sleeper', arguments: { seconds: Number(SLEEP_SECONDS) } } },
  CallToolResultSchema,
  { task: { ttl: 60000 } },
)) {
  if (m.type === 'taskCreated') {
    id = m.task.taskId;
    break;
  }
  check('sleeper as a task', false, m);
  break;
}
check('the sleeper runs', await waitSleepers(1), sleepers());
const running = await client.experimental.tasks.getTask(id);
check('tasks/get of the running task', running.status === 'working', running);
const cancelled = await client.experimental.tasks.cancelTask(id);
check('tasks/cancel', cancelled.status === 'cancelled', cancelled);
check('the sleeper ended', await waitSleepers(0), sleepers());
const after = await client.experimental.tasks.getTask(id);
check('tasks/get after the cancel', after.status === 'cancelled', after);

await client.close();
console.log(failures === 0 ? 'PASS' : `${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
