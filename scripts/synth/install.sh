#!/usr/bin/env bash
# Installs the synthesis check's node dependencies (@yowasp/yosys, pinned in package-lock.json)
# into scripts/synth/node_modules. Does nothing when they are already installed at the locked
# version. Needs node >= 18 and npm (Debian: apt-get install nodejs npm) and the npm registry.
#   scripts/synth/install.sh [--force]
set -euo pipefail

src="${BASH_SOURCE[0]}"; case "$src" in */*) here="${src%/*}" ;; *) here=. ;; esac
here="$(cd "$here" && pwd)"
cd "$here"

die() { echo "synth/install.sh: error: $*" >&2; exit 1; }

command -v node >/dev/null 2>&1 ||
  die "node not found on PATH; the synthesis check needs Node.js >= 18 and npm (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 ||
  die "npm not found on PATH; the synthesis check needs npm to install @yowasp/yosys (Debian: apt-get install npm)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 18 ] 2>/dev/null ||
  die "node $(node --version) is too old; @yowasp/yosys needs Node.js >= 18"

want=""
if [ -f package-lock.json ]; then
  want="$(node -p 'require("./package-lock.json").packages["node_modules/@yowasp/yosys"]?.version ?? ""')"
fi
have=""
if [ -f node_modules/@yowasp/yosys/package.json ]; then
  have="$(node -p 'require("./node_modules/@yowasp/yosys/package.json").version')"
fi

if [ "${1:-}" != "--force" ] && [ -n "$have" ] && { [ -z "$want" ] || [ "$have" = "$want" ]; }; then
  echo "synth/install.sh: @yowasp/yosys $have already installed in $here/node_modules"
  exit 0
fi

export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
if [ -f package-lock.json ]; then
  echo "synth/install.sh: npm ci in $here (@yowasp/yosys $want)"
  npm ci --no-audit --no-fund || die "'npm ci' failed in $here (is the npm registry reachable?)"
else
  echo "synth/install.sh: npm install in $here (no package-lock.json)"
  npm install --no-audit --no-fund || die "'npm install' failed in $here (is the npm registry reachable?)"
fi

[ -f node_modules/@yowasp/yosys/package.json ] || die "@yowasp/yosys is still missing after the install"
echo "synth/install.sh: installed @yowasp/yosys $(node -p 'require("./node_modules/@yowasp/yosys/package.json").version')"
