'use strict';
// Drives `mcpdecl lsp`'s names with vscode-languageserver-protocol, the
// client library VS Code's extension is built on: opens one file of a
// configuration folder, asks the definition of the args.query in an
// expr-lang string, prepares and renames the tool, applies the edits to
// every file they name (open or not, in UTF-16 units as a client does)
// and reads the semantic tokens. Prints one JSON line of what it saw;
// lsp's TestRealClientNames checks it.
//
//   node names.js MCPDECL DIR
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const url = require('url');
const rpc = require(require.resolve('vscode-languageserver-protocol/node', { paths: [process.env.LSP_CLIENT_MODULES] }));

const [mcpdecl, dir] = process.argv.slice(2);

// at is the position of marker's first occurrence plus offset characters.
function at(text, marker, offset) {
  const i = text.indexOf(marker) + offset;
  const before = text.slice(0, i).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

// apply applies text edits, last first; JavaScript strings count UTF-16
// units, as the protocol's characters do.
function apply(text, edits) {
  const lines = text.split('\n');
  const sorted = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  for (const e of sorted) {
    const line = lines[e.range.start.line];
    lines[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
  }
  return lines.join('\n');
}

async function main() {
  const child = cp.spawn(mcpdecl, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  conn.listen();
  const init = await conn.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  const file = path.join(dir, 'tools.hcl');
  const uri = url.pathToFileURL(file).href;
  const text = fs.readFileSync(file, 'utf8');
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'mcpdecl', version: 1, text },
  });
  const textDocument = { uri };
  const definition = await conn.sendRequest(rpc.DefinitionRequest.type, { textDocument, position: at(text, '+ args.query', 8) });
  const toolAt = at(text, 'tool "search"', 8);
  const prepared = await conn.sendRequest(rpc.PrepareRenameRequest.type, { textDocument, position: toolAt });
  const edit = await conn.sendRequest(rpc.RenameRequest.type, { textDocument, position: toolAt, newName: 'find_books' });
  const renamed = {};
  for (const [fileURI, edits] of Object.entries(edit.changes)) {
    const p = url.fileURLToPath(fileURI);
    renamed[path.basename(p)] = apply(fs.readFileSync(p, 'utf8'), edits);
  }
  let refused = '';
  try {
    await conn.sendRequest(rpc.RenameRequest.type, { textDocument, position: toolAt, newName: 'find books' });
  } catch (err) {
    refused = err.message;
  }
  const tokens = await conn.sendRequest(rpc.SemanticTokensRequest.type, { textDocument });
  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  const code = await exited;
  console.log(
    JSON.stringify({
      legend: init.capabilities.semanticTokensProvider.legend.tokenTypes,
      definition,
      prepared,
      renamed,
      refused,
      tokens: tokens.data,
      exit: code,
    }),
  );
  conn.dispose();
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
