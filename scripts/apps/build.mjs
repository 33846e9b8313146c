// Writes each <name>.src.html of a folder as <name>.html, one
// self-contained page: every <script type="module" src="./x.js"> is bundled
// by esbuild (with its npm imports, such as the MCP Apps SDK) and inlined.
//
//   node build.mjs NODE_MODULES_DIR [--out DIR] FOLDER...
//
// The pages are written beside their sources, or into DIR. The browser
// test builds its host pages with it into a temporary folder
// (testkit/apptest); the examples' app page needs no build.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";

const [modules, ...rest] = process.argv.slice(2);
const outDir = rest[0] === "--out" ? rest[1] : null;
const folders = outDir ? rest.slice(2) : rest;
if (!modules || folders.length === 0 || (rest[0] === "--out" && !outDir)) {
  console.error("usage: node build.mjs NODE_MODULES_DIR [--out DIR] FOLDER...");
  process.exit(2);
}
const esbuild = createRequire(join(resolve(modules), "x.js"))("esbuild");

const SCRIPT = /<script type="module" src="\.\/([\w.-]+\.js)"><\/script>/g;

// bundle returns the script as one ES module, safe to place inside a
// <script> element (no "</script" in it).
async function bundle(entry) {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
    nodePaths: [resolve(modules)],
    logLevel: "error",
  });
  return out.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1");
}

async function buildPage(src) {
  const page = readFileSync(src, "utf8");
  const scripts = new Map();
  for (const [, file] of page.matchAll(SCRIPT)) {
    scripts.set(file, await bundle(join(dirname(src), file)));
  }
  if (scripts.size === 0) throw new Error(`${src}: no <script type="module" src="./name.js"> to inline`);
  const built = page.replace(SCRIPT, (_, file) => `<script type="module">${scripts.get(file)}</script>`);
  const name = basename(src).replace(/\.src\.html$/, ".html");
  const dst = outDir ? join(outDir, name) : join(dirname(src), name);
  const note = `<!-- Built from ${basename(src)} by scripts/apps/build.mjs: edit that file, not this one. -->\n`;
  writeFileSync(dst, built.replace(/^(<!doctype html>\n)?/i, (d) => d + note));
  return dst;
}

let count = 0;
for (const folder of folders) {
  for (const name of readdirSync(folder).filter((n) => n.endsWith(".src.html")).sort()) {
    const dst = await buildPage(join(folder, name));
    console.log(`wrote ${dst}`);
    count++;
  }
}
if (count === 0) {
  console.error(`no *.src.html in ${folders.join(", ")}`);
  process.exit(1);
}
