#!/usr/bin/env bash
# Prints the path of the pinned nats-server on stdout; progress goes to stderr.
# `npm start` (tools/devstack/src/servers.ts) and every test harness run this one
# binary, through scripts/ensure-test-tools.sh before the tests or on first use.
#
# Pinned: v2.15.2, the newest release the Go module proxy serves here, the version
# production should run (charts/ratesmith/README.md pins the nats chart's image to
# it; why: README.md, "Tools and versions"). `nats-server` from PATH is used when it
# is exactly this version; otherwise it is built once with Go into the shared tool
# cache (minutes when cold: README.md, "Tools and versions"). NATS_SERVER_BIN
# overrides all of this in tools/devstack/src/servers.ts.
set -euo pipefail
version=v2.15.2

cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
bin="$cache/bin/nats-server-$version"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

if command -v nats-server >/dev/null 2>&1 &&
  [ "$(nats-server --version 2>/dev/null)" = "nats-server: $version" ]; then
  command -v nats-server
  exit 0
fi

command -v go >/dev/null || {
  echo "ensure-nats-server: Go 1.26 or newer is needed to build nats-server $version (install it), or set NATS_SERVER_BIN to a nats-server $version" >&2
  exit 1
}
mkdir -p "$cache/bin"
# One progress line; Go's module downloads go to a log file it names.
log="$cache/nats-server-build.log"
echo "ensure-nats-server: building nats-server $version with Go (first run only, about 2-8 minutes on 2 busy cores; log: $log)..." >&2
# Built into a temporary directory beside the target, then renamed: a concurrent caller
# never sees a half-written binary.
tmp=$(mktemp -d "$cache/bin/.nats-server.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath -ldflags "-s -w" \
  "github.com/nats-io/nats-server/v2@$version" >"$log" 2>&1; then
  echo "ensure-nats-server: the build failed; the end of $log:" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
mv "$tmp/nats-server" "$bin"
echo "ensure-nats-server: built $bin" >&2
echo "$bin"
