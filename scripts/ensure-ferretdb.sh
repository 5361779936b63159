#!/usr/bin/env bash
# Builds FerretDB 1.24 (a MongoDB wire-protocol server on SQLite) from its Go module
# into the shared tool cache, once. Local development and tests use it because
# MongoDB itself cannot be installed on our machines; production uses MongoDB.
# Prints the binary's path on stdout; progress goes to stderr.
set -euo pipefail
version=v1.24.0
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
bin="$cache/bin/ferretdb-$version"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "ensure-ferretdb: Go is needed to build FerretDB (install golang)" >&2; exit 1; }
mkdir -p "$cache/bin" "$cache/src"
# One progress line; Go's module downloads (about 80 lines) go to a log file it names.
log="$cache/ferretdb-build.log"
echo "ensure-ferretdb: building FerretDB $version from its Go module (first run only, about 2-4 minutes; log: $log)..." >&2
fail() {
  echo "ensure-ferretdb: $1; the end of $log:" >&2
  tail -n 20 "$log" >&2
  exit 1
}
go mod download -json "github.com/FerretDB/FerretDB@$version" >"$log" 2>&1 ||
  fail "could not download the FerretDB module"
dir=$(sed -n 's/^\s*"Dir": "\(.*\)",\?$/\1/p' "$log")
[ -n "$dir" ] || fail "could not download the FerretDB module"
work=$(mktemp -d "$cache/src/ferretdb.XXXXXX")
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
echo "$version" > "$work/build/version/version.txt"
(cd "$work" && GOFLAGS=-mod=mod go build -o "$bin.tmp" ./cmd/ferretdb) >>"$log" 2>&1 || fail "the build failed"
mv "$bin.tmp" "$bin"
rm -rf "$work"
echo "ensure-ferretdb: built $bin" >&2
echo "$bin"
