'use strict';
// Drives `mcpdecl lsp` with vscode-languageserver-protocol, the client
// library VS Code's extension is built on: initialize, open a broken
// file, wait for its diagnostics, fix it through the quick fix the server
// offers, complete args., hover, format; then, in a file of the JSON
// syntax, complete args. in a program string and a property name, and
// hover a property name; shut down. Prints one JSON line of what it saw;
// lsp's TestRealClient checks it.
//
//   node client.js MCPDECL FILE JSONFILE
const cp = require('child_process');
const fs = require('fs');
const rpc = require(require.resolve('vscode-languageserver-protocol/node', { paths: [process.env.LSP_CLIENT_MODULES] }));

const [mcpdecl, file, jsonFile] = process.argv.slice(2);

async function main() {
  const child = cp.spawn(mcpdecl, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  const published = [];
  let onPublish = () => {};
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    onPublish(p);
  });
  const diagnostics = (uri, ok) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no diagnostics for ' + uri)), 30000);
      const check = (p) => {
        if (p.uri === uri && ok(p.diagnostics)) {
          clearTimeout(timer);
          onPublish = () => {};
          resolve(p.diagnostics);
        }
      };
      onPublish = check;
      published.forEach(check);
    });
  conn.listen();

  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
  });
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  const uri = 'file://' + file;
  let text = fs.readFileSync(file, 'utf8');
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'mcpdecl', version: 1, text },
  });
  const broken = await diagnostics(uri, (d) => d.length > 0);

  const actions = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri },
    range: broken[0].range,
    context: { diagnostics: broken },
  });
  const edit = actions[0].edit.changes[uri][0];
  const lines = text.split('\n');
  const line = lines[edit.range.start.line];
  // The range counts UTF-16 units, as JavaScript strings do.
  lines[edit.range.start.line] =
    line.slice(0, edit.range.start.character) + edit.newText + line.slice(edit.range.end.character);
  text = lines.join('\n');
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text }],
  });
  await diagnostics(uri, (d) => d.length === 0);

  const positionIn = (src, marker, offset) => {
    const i = src.indexOf(marker) + offset;
    const before = src.slice(0, i).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };
  const at = (marker, offset) => positionIn(text, marker, offset);
  const completion = await conn.sendRequest(rpc.CompletionRequest.type, {
    textDocument: { uri },
    position: at('args.query', 5),
  });
  const hover = await conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri },
    position: at('args.query', 6),
  });
  const formatting = await conn.sendRequest(rpc.DocumentFormattingRequest.type, {
    textDocument: { uri },
    options: { tabSize: 2, insertSpaces: true },
  });

  const jsonUri = 'file://' + jsonFile;
  const jsonText = fs.readFileSync(jsonFile, 'utf8');
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: jsonUri, languageId: 'json', version: 1, text: jsonText },
  });
  const inJSON = (marker, offset) => ({ textDocument: { uri: jsonUri }, position: positionIn(jsonText, marker, offset) });
  const jsonCompletion = await conn.sendRequest(rpc.CompletionRequest.type, inJSON('"text": "args.', 14));
  const jsonKeys = await conn.sendRequest(rpc.CompletionRequest.type, inJSON('"i"', 2));
  const isError = jsonKeys.items.find((i) => i.label === 'is_error');
  const jsonHover = await conn.sendRequest(rpc.HoverRequest.type, inJSON('"arg"', 2));

  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  const code = await exited;
  console.log(
    JSON.stringify({
      sync: init.capabilities.textDocumentSync.change,
      broken: broken.map((d) => ({ code: d.code, range: d.range, source: d.source })),
      fix: actions[0].title,
      completion: completion.items.map((i) => i.label).sort(),
      hover: hover.contents.value,
      formatting: formatting.length,
      json: {
        completion: jsonCompletion.items.map((i) => i.label).sort(),
        keys: jsonKeys.items.map((i) => i.label).sort(),
        keyEdit: isError && isError.textEdit,
        hover: jsonHover && jsonHover.contents.value,
      },
      exit: code,
    }),
  );
  conn.dispose();
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
