// Package apptest holds the browser test of MCP Apps: `mcpdecl serve
// --http` on the orders app example (examples/orders_app.hcl), a test host
// built from the official ext-apps bridge and MCP client (web/), and
// Debian's Chromium driven by playwright-core. The tools come from
// scripts/browser.sh; without them the test skips, and under CI (CI set) it
// fails instead.
package apptest
