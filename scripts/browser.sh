#!/usr/bin/env bash
# Prepares the browser test of MCP Apps (testkit/apptest): Debian's
# Chromium and its driver from apt when /usr/bin/chromium is missing, and
# the pinned npm packages of scripts/apps/ (playwright-core, the ext-apps
# SDK and bridge, the MCP client, esbuild to build the test host's pages)
# installed with `npm ci` into $MCPDECL_TOOLS_DIR/apps (default
# .tools/apps), once per lock. The examples need none of this: their app
# page (examples/orders_app.html) is a plain file in the repository.
#
# The test launches /usr/bin/chromium headless with every background
# service off: the machine may have no network, and Chromium must not try
# to reach anything but 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x /usr/bin/chromium ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null
fi
TOOLS=${MCPDECL_TOOLS_DIR:-$PWD/.tools}
mkdir -p "$TOOLS"
source scripts/npm-ci.sh
npm_ci apps scripts/apps
echo "browser test tools ready: /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null || echo unknown)), $TOOLS/apps"
