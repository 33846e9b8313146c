'use strict';
// The mcpdecl extension: the language of *.mcp.hcl files (and of .hcl files
// that detect.js recognises), highlighted by syntaxes/mcpdecl.tmLanguage.json,
// and a language client that starts `mcpdecl lsp` over stdio for
// diagnostics, completion, hover and the rest. The JSON Schema of
// *.hcl.json files is registered in package.json (jsonValidation).
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { looksLikeMcpdecl } = require('./detect');

let client;
let starting;
let failed = false; // the server did not start: not again until the settings change

// opened looks at each document the editor opens: a .hcl file that
// detect.js recognises becomes mcpdecl (which opens it again, as mcpdecl),
// and the first mcpdecl or *.hcl.json document starts the language server,
// so a workspace without mcpdecl files never runs it.
function opened(doc) {
  if (doc.uri.scheme !== 'file') {
    return;
  }
  if (doc.languageId === 'mcpdecl' || doc.fileName.endsWith('.hcl.json')) {
    ensureClient();
    return;
  }
  if (!doc.fileName.endsWith('.hcl') || !vscode.workspace.getConfiguration('mcpdecl').get('detect', true)) {
    return;
  }
  if (looksLikeMcpdecl(doc.getText())) {
    vscode.languages.setTextDocumentLanguage(doc, 'mcpdecl');
  }
}

function ensureClient() {
  if (!client && !starting && !failed) {
    starting = startClient().finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function startClient() {
  const config = vscode.workspace.getConfiguration('mcpdecl');
  if (!config.get('server.enabled', true)) {
    return;
  }
  const command = config.get('path') || 'mcpdecl';
  client = new LanguageClient(
    'mcpdecl',
    'mcpdecl',
    { command, args: ['lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'mcpdecl' },
        { scheme: 'file', language: 'json', pattern: '**/*.hcl.json' },
      ],
    },
  );
  try {
    await client.start();
  } catch (err) {
    client = undefined;
    failed = true;
    vscode.window.showWarningMessage(
      `mcpdecl: the language server did not start (${command} lsp: ${err.message}). ` +
        'Set mcpdecl.path to the mcpdecl program, or mcpdecl.server.enabled to false.',
    );
  }
}

async function stopClient() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

function activate(context) {
  vscode.workspace.textDocuments.forEach(opened);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(opened),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('mcpdecl.path') || e.affectsConfiguration('mcpdecl.server.enabled')) {
        await stopClient();
        failed = false;
        vscode.workspace.textDocuments.forEach(opened); // starts it again if a document needs it
      }
    }),
  );
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
