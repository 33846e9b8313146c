#!/usr/bin/env node
// Reads the checks.json files written by `conformance server -o DIR` and
// compares every failed check with testdata/conformance/expected-failures.txt.
//
//   node check-results.mjs EXPECTED_FILE SUITE=DIR[:LOG] [SUITE=DIR[:LOG] ...]
//
// LOG, when given, is the suite's stdout: every scenario of its
// "=== SUMMARY ===" must have a checks.json in DIR (a scenario that crashed
// before writing one would otherwise go unnoticed).
//
// Each DIR holds one folder per scenario, named
// server-<scenario>-<ISO timestamp with ':' and '.' replaced by '-'>, with a
// checks.json inside: an array of {id, status: SUCCESS|FAILURE|WARNING|
// SKIPPED|INFO, description, errorMessage?}. A check is identified by
// "<suite> <scenario> <check-id>"; one check id may be emitted several times
// in a scenario, and the check fails when any of them is a FAILURE.
//
// Exit 1 when a check fails that is not listed, when a listed check passes or
// is not emitted at all (the list must be kept honest), when a suite wrote no
// results, or when the expected-failures file is malformed. Only
// SUCCESS and FAILURE count; WARNINGs are printed, not scored.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [expectedFile, ...suiteArgs] = process.argv.slice(2);
if (!expectedFile || suiteArgs.length === 0) {
  console.error('usage: check-results.mjs EXPECTED_FILE SUITE=DIR [SUITE=DIR ...]');
  process.exit(2);
}

// ---- expected failures: "<suite> <scenario> <check-id|*>  # reason"
const expected = new Map(); // key -> {reason, line, suite, scenario, check}
let malformed = 0;
readFileSync(expectedFile, 'utf8').split('\n').forEach((raw, i) => {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return;
  const m = line.match(/^(\S+)\s+(\S+)\s+(\S+)\s+#\s*(\S.*)$/);
  if (!m) {
    console.error(`${expectedFile}:${i + 1}: want "<suite> <scenario> <check-id|*>  # reason", got: ${line}`);
    malformed++;
    return;
  }
  const [, suite, scenario, check, reason] = m;
  const key = `${suite} ${scenario} ${check}`;
  if (expected.has(key)) {
    console.error(`${expectedFile}:${i + 1}: duplicate entry ${key}`);
    malformed++;
    return;
  }
  expected.set(key, { reason, line: i + 1, suite, scenario, check, used: false });
});

const stamp = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const suites = suiteArgs.map((a) => {
  const i = a.indexOf('=');
  const [dir, log] = a.slice(i + 1).split(':');
  return { name: a.slice(0, i), dir, log };
});

let problems = malformed;
const rows = [];
for (const { name: suite, dir, log } of suites) {
  const checks = new Map(); // "<scenario> <id>" -> {scenario, id, failed, passed, msgs[]}
  const scenarios = new Set();
  let warnings = 0;
  const entries = existsSync(dir) ? readdirSync(dir) : [];
  for (const entry of entries) {
    const m = entry.match(stamp);
    const file = join(dir, entry, 'checks.json');
    if (!m || !existsSync(file)) continue;
    const scenario = m[1];
    scenarios.add(scenario);
    let list;
    try {
      list = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      console.error(`${file}: ${e.message}`);
      problems++;
      continue;
    }
    for (const c of list) {
      if (c.status === 'WARNING') warnings++;
      if (c.status !== 'SUCCESS' && c.status !== 'FAILURE') continue;
      const k = `${scenario} ${c.id}`;
      const rec = checks.get(k) ?? { scenario, id: c.id, failed: false, passed: false, msgs: [] };
      if (c.status === 'FAILURE') {
        rec.failed = true;
        rec.msgs.push((c.errorMessage || c.description || '').replace(/\s+/g, ' ').slice(0, 220));
      } else rec.passed = true;
      checks.set(k, rec);
    }
  }
  if (scenarios.size === 0) {
    console.error(`${suite}: no results in ${dir} (did the suite run?)`);
    problems++;
    continue;
  }
  if (log) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    const summary = text.split('=== SUMMARY ===')[1] ?? '';
    const listed = [...summary.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gm)].map((m) => m[1]);
    if (listed.length === 0) {
      console.error(`${suite}: no scenario summary in ${log} (did the suite finish?)`);
      problems++;
    }
    for (const sc of listed) {
      if (!scenarios.has(sc)) {
        console.error(`${suite}: scenario ${sc} is in the suite's summary but wrote no checks.json`);
        problems++;
      }
    }
  }

  let passed = 0, failedExpected = 0;
  const unexpected = [], stale = [];
  for (const rec of checks.values()) {
    const exact = expected.get(`${suite} ${rec.scenario} ${rec.id}`);
    const wild = expected.get(`${suite} ${rec.scenario} *`);
    if (exact) exact.used = true;
    if (rec.failed) {
      if (exact || wild) {
        failedExpected++;
        if (wild && !exact) wild.used = true;
      } else unexpected.push(rec);
    } else {
      passed++;
      if (exact) stale.push({ key: `${suite} ${rec.scenario} ${rec.id}`, why: 'now passes', e: exact });
    }
  }
  for (const [key, e] of expected) {
    if (e.suite !== suite || e.used) continue;
    if (e.check === '*') {
      stale.push({ key, why: scenarios.has(e.scenario) ? 'no check of this scenario fails any more' : 'scenario did not run', e });
    } else if (!checks.has(`${e.scenario} ${e.check}`)) {
      stale.push({ key, why: 'check was not emitted', e });
    }
  }

  console.log(`\n== ${suite}: ${scenarios.size} scenarios, ${checks.size} scored checks: ` +
    `${passed} passed, ${failedExpected} failed as expected, ${unexpected.length} failed unexpectedly, ` +
    `${stale.length} stale expected-failure entries, ${warnings} warnings`);
  for (const rec of [...checks.values()].sort((a, b) => (a.scenario + a.id).localeCompare(b.scenario + b.id))) {
    const exp = expected.get(`${suite} ${rec.scenario} ${rec.id}`) ?? expected.get(`${suite} ${rec.scenario} *`);
    if (rec.failed && exp) console.log(`  XFAIL ${rec.scenario} ${rec.id}  # ${exp.reason}`);
  }
  for (const rec of unexpected) {
    console.log(`  NEW FAILURE: ${suite} ${rec.scenario} ${rec.id}: ${rec.msgs.join(' | ')}`);
  }
  for (const s of stale) {
    console.log(`  STALE (${s.why}): ${s.key}  (expected-failures line ${s.e.line}; remove it)`);
  }
  problems += unexpected.length + stale.length;
  rows.push({ suite, passed, failedExpected, unexpected: unexpected.length, stale: stale.length });
}

for (const [key, e] of expected) {
  if (!suites.some((s) => s.name === e.suite)) {
    console.log(`  UNKNOWN SUITE in expected-failures line ${e.line}: ${key}`);
    problems++;
  }
}

console.log('\n== conformance summary');
for (const r of rows) {
  console.log(`  ${r.suite}: passed ${r.passed}, failed ${r.failedExpected + r.unexpected} ` +
    `(expected ${r.failedExpected}, unexpected ${r.unexpected}), stale entries ${r.stale}`);
}
if (problems > 0) {
  console.log(`FAIL: ${problems} problem(s); see NEW FAILURE / STALE lines above.`);
  process.exit(1);
}
console.log('OK: every failed check is an expected failure, and every expected failure still fails.');
