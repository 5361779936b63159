#!/usr/bin/env bash
# Prints the path of a Helm 3 binary on stdout; progress goes to stderr. The chart
# tests (charts/test) and scripts/render-k8s.sh use it.
#
# `helm` from PATH when it is Helm 3; otherwise one built once with Go into the shared
# tool cache (about 2.5 minutes cold, on 2 cores). Helm 4 is not taken from PATH: the
# committed k8s/ manifests are compared byte for byte with `helm template`, and the
# chart is tested with Helm 3.
set -euo pipefail
version=v3.22.0
# The Kubernetes version helm assumes offline (`helm template`, `helm lint`). Release
# builds set it from their client-go (v0.37 for v3.22.0, so 1.37) through -ldflags; a
# plain `go install` would leave it at 1.20 and fail the chart's kubeVersion.
kube_minor=37

if command -v helm >/dev/null 2>&1 && helm version --short 2>/dev/null | grep -q '^v3\.'; then
  command -v helm
  exit 0
fi

cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
bin="$cache/bin/helm"
if [ -x "$bin" ] && [ "$("$bin" version --template '{{.Version}}' 2>/dev/null)" = "$version" ]; then
  echo "$bin"
  exit 0
fi

command -v go >/dev/null || { echo "ensure-helm: Go is needed to build helm (install golang), or put Helm 3 on PATH" >&2; exit 1; }
mkdir -p "$cache/bin"
# One progress line; Go's module downloads go to a log file it names.
log="$cache/helm-build.log"
echo "ensure-helm: building helm $version with Go (first run only, about 3 minutes; log: $log)..." >&2
# Built into a temporary directory beside the target, then renamed: a concurrent caller
# never sees a half-written binary.
tmp=$(mktemp -d "$cache/bin/.helm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$version"
for pkg in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
  ldflags="$ldflags -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$kube_minor"
done
if ! CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath -ldflags "$ldflags" "helm.sh/helm/v3/cmd/helm@$version" >"$log" 2>&1; then
  echo "ensure-helm: the build failed; the end of $log:" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
mv "$tmp/helm" "$bin"
echo "ensure-helm: built $bin" >&2
echo "$bin"
