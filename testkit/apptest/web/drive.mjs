// Drives the test host in Debian's Chromium with playwright-core, and
// prints what it saw as one JSON object on stdout (testkit/apptest checks
// it). Its input is the JSON object in APPTEST (see apptest's driverInput):
// the modules folder, the host page's URL, and the scenario: "orders" (the
// orders dashboard: read it, probe its policy with probeUrl, screenshot,
// cancel an order) or "probe" (fetch each of probes from the app's frame).
//
// Chromium starts headless with a fresh profile and every background
// service off: nothing but 127.0.0.1 may be reached.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const input = JSON.parse(process.env.APPTEST);
const { chromium } = createRequire(join(resolve(input.modules), "x.js"))("playwright-core");

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const STEP = 30_000; // ms any one wait may take on a loaded machine

const profile = mkdtempSync(join(tmpdir(), "mcpdecl-chromium-"));
const out = { dialogs: [], console: [], pageErrors: [] };
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    viewport: { width: 720, height: 640 },
    deviceScaleFactor: 1,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(STEP);
  page.on("dialog", async (d) => {
    out.dialogs.push({ type: d.type(), message: d.message() });
    await d.accept();
  });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") out.console.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => out.pageErrors.push(String(e)));

  await page.goto(input.hostUrl);
  const outer = await (await page.waitForSelector("iframe#app")).contentFrame();
  const app = await (await outer.waitForSelector("iframe")).contentFrame();
  if (input.scenario === "probe") {
    await app.waitForSelector("#probe");
    out.policy = await app.evaluate(readPolicies);
    out.probes = [];
    for (const url of input.probes) out.probes.push(await app.evaluate(fetchProbe, url));
    out.host = await page.evaluate(() => window.__host);
  } else {
    await orders(page, app);
  }
} catch (err) {
  out.error = String(err?.stack ?? err);
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(out) + "\n");

async function orders(page, app) {
  await app.waitForSelector("#chart g[data-customer]");
  await app.waitForFunction(() => document.getElementById("status").textContent === "Ready.");
  out.appOrigin = await app.evaluate(() => String(self.origin));
  out.policy = await app.evaluate(readPolicies);
  out.before = await readApp(app);

  // The app may not fetch an origin its resource did not declare, even one
  // the network reaches: the host page (no policy) gets an answer.
  out.probe = {
    host: await page.evaluate(fetchProbe, input.probeUrl),
    app: await app.evaluate(fetchProbe, input.probeUrl),
  };

  await page.screenshot({ path: input.screenshot, fullPage: true });

  await app.click(`button[data-cancel="${input.cancel}"]`);
  await app.waitForSelector(`tr[data-order-id="${input.cancel}"]`, { state: "detached" });
  await app.waitForFunction((id) => document.getElementById("status").textContent === `Order ${id} cancelled.`, input.cancel);
  out.after = await readApp(app);
  out.host = await page.evaluate(() => window.__host);
}

// readPolicies reads the page's policies: the host's (the sandbox proxy
// adds it) and any other the page holds.
function readPolicies() {
  const all = [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')];
  return { host: all.find((m) => m.hasAttribute("data-host-policy"))?.content ?? null, others: all.filter((m) => !m.hasAttribute("data-host-policy")).map((m) => m.content) };
}

// readApp reads what the app shows: the chart's bars and the order rows.
async function readApp(frame) {
  return frame.evaluate(() => ({
    totals: [...document.querySelectorAll("#chart g[data-customer]")].map((g) => ({
      customer: g.dataset.customer,
      total: g.dataset.total,
      orders: Number(g.dataset.orders),
      label: g.textContent,
    })),
    orders: [...document.querySelectorAll("#orders tr")].map((tr) => Number(tr.dataset.orderId)),
    status: document.getElementById("status").textContent,
  }));
}

// fetchProbe runs in a page: it fetches url (no-cors: only whether the
// request may leave counts) and reports the outcome and any connect-src
// violation the page's policy raised for it.
async function fetchProbe(url) {
  const violation = new Promise((resolve) => {
    document.addEventListener("securitypolicyviolation", (e) => {
      if (e.effectiveDirective === "connect-src" && e.blockedURI.startsWith(new URL(url).origin)) resolve({ directive: e.effectiveDirective, blocked: e.blockedURI, disposition: e.disposition });
    });
    setTimeout(() => resolve(null), 5000);
  });
  let outcome;
  try {
    const r = await fetch(url, { mode: "no-cors", cache: "no-store" });
    outcome = { fetched: true, type: r.type };
  } catch (e) {
    outcome = { fetched: false, error: String(e) };
  }
  outcome.violation = outcome.fetched ? null : await violation;
  return outcome;
}
