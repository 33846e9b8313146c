#!/usr/bin/env bash
# Prepares the browser test of MCP Apps (testkit/apptest): Debian's
# Chromium and its driver from apt when /usr/bin/chromium is missing, the
# pinned npm packages (playwright-core, the ext-apps SDK and bridge, the MCP
# client, esbuild) in $MCPDECL_TOOLS_DIR/apps (default .tools/apps), and the
# examples' app pages (scripts/apps.sh).
#
# The test launches /usr/bin/chromium headless with every background
# service off: the machine may have no network, and Chromium must not try
# to reach anything but 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x /usr/bin/chromium ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null
fi
./scripts/apps.sh
echo "browser test tools ready: /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null || echo unknown)), ${MCPDECL_TOOLS_DIR:-.tools}/apps"
