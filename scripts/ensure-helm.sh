#!/usr/bin/env bash
# Prints the path of a helm binary: the one on PATH, else one built once with Go
# into the shared tool cache (about 3 minutes cold). The chart tests use it.
set -euo pipefail
if command -v helm >/dev/null 2>&1; then command -v helm; exit 0; fi
version=v3.19.0
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
bin="$cache/bin/helm-$version"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "ensure-helm: Go is needed to build helm (install golang)" >&2; exit 1; }
mkdir -p "$cache/bin"
echo "ensure-helm: building helm $version (first run only, about 3 minutes)..." >&2
tmp=$(mktemp -d)
GOBIN="$tmp" go install "helm.sh/helm/v3/cmd/helm@$version" >&2
mv "$tmp/helm" "$bin"
rm -rf "$tmp"
echo "$bin"
