// Tokenises files with the extension's TextMate grammar, as VS Code does
// (vscode-textmate on the Oniguruma regular expressions of
// vscode-oniguruma), and prints each file's tokens as JSON:
// {"file": [[line, start, end, "text", "scope", ...], ...]} (line from 1,
// columns from 0, in UTF-16 code units as VS Code counts them).
//
//   TEXTMATE_MODULES=.tools/vscode-grammar/node_modules node tokenize.mjs GRAMMAR FILE...
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const modules = process.env.TEXTMATE_MODULES;
if (!modules) {
  console.error('TEXTMATE_MODULES must name the node_modules folder holding vscode-textmate and vscode-oniguruma');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(modules), 'noop.js'));
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const [grammarPath, ...files] = process.argv.slice(2);
const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));

const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scopeName) => {
    if (scopeName !== 'source.mcpdecl') return null;
    const text = readFileSync(grammarPath, 'utf8');
    return vsctm.parseRawGrammar(text, grammarPath);
  },
});
const grammar = await registry.loadGrammar('source.mcpdecl');

const out = {};
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  let state = vsctm.INITIAL;
  const tokens = [];
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      tokens.push([i + 1, t.startIndex, Math.min(t.endIndex, line.length), line.slice(t.startIndex, t.endIndex), ...t.scopes]);
    }
    state = r.ruleStack;
  });
  out[file] = tokens;
}
process.stdout.write(JSON.stringify(out));
