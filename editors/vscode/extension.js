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

function adopt(doc) {
  if (doc.languageId === 'mcpdecl' || doc.uri.scheme !== 'file' || !doc.fileName.endsWith('.hcl')) {
    return;
  }
  if (!vscode.workspace.getConfiguration('mcpdecl').get('detect', true)) {
    return;
  }
  if (looksLikeMcpdecl(doc.getText())) {
    vscode.languages.setTextDocumentLanguage(doc, 'mcpdecl');
  }
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

async function activate(context) {
  vscode.workspace.textDocuments.forEach(adopt);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(adopt),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('mcpdecl.path') || e.affectsConfiguration('mcpdecl.server.enabled')) {
        await stopClient();
        await startClient();
      }
    }),
  );
  await startClient();
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
