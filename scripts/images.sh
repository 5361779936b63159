#!/usr/bin/env bash
# `npm run images`: every image the chart deploys, built from the real Dockerfile on this
# machine, plus images of the backing servers the images' tests start
# (tools/devstack/test/images.int.spec.ts):
#   ratesmith/<service>:local          the five services, NODE_IMAGE and
#                                      FRONTEND_BUILD_IMAGE the local base
#                                      (scripts/image-base.sh)
#   ratesmith-local/nats-server:<v>    the pinned nats-server (scripts/ensure-nats-server.sh)
#   ratesmith-local/ferretdb:<v>       FerretDB (scripts/ensure-ferretdb.sh)
# Production builds the same Dockerfile on the official node images.
#
# Cached by content: each image carries a label `ratesmith.source`, a hash of what it is
# built from (the files its Dockerfile stages copy, the Dockerfile, the base's tag; the
# server binary); an image whose label matches is kept, so a second run builds nothing.
# Prints how long the base and each image took, and each image's size.
#
#   bash scripts/images.sh [service ...]   # default: all five, and the servers
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
say() { echo "images: $*" >&2; }
export DOCKER_BUILDKIT=1
docker=$(bash scripts/ensure-docker.sh)
export DOCKER=$docker

services=("$@")
[ ${#services[@]} -gt 0 ] || services=(auth rules catalog rate-engine gateway)
all=$([ $# -eq 0 ] && echo 1 || true)

# Seconds since $1 (an $EPOCHREALTIME), one decimal.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
size_of() { "$docker" image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'; }
label_of() { "$docker" image inspect -f '{{index .Config.Labels "ratesmith.source"}}' "$1" 2>/dev/null || true; }

t=$EPOCHREALTIME
base=$(bash scripts/image-base.sh)
say "base $base: $(since "$t") s, $(size_of "$base")"

# A hash of the files an image of $1 is built from (the Dockerfile's COPY sources,
# tracked or not, as the working tree has them) and the base. Tests are left out as
# .dockerignore leaves them out of the build, so editing one rebuilds nothing.
source_key() {
  local service=$1 served=()
  # Only the gateway's image carries the admin frontend (the Dockerfile's frontend-of-*).
  [ "$service" = gateway ] && served=(frontend)
  {
    echo "$base"
    git ls-files -z -co --exclude-standard -- Dockerfile .dockerignore package.json package-lock.json \
      tsconfig.base.json proto services/kit "services/$service" "${served[@]}" \
      ':(exclude,glob)**/*.spec.ts' ':(exclude,glob)**/test/**' |
      sort -z | xargs -0 sha256sum
  } | sha256sum | cut -c1-16
}

build_service() {
  local service=$1 tag="ratesmith/$1:local" key t
  key=$(source_key "$service")
  t=$EPOCHREALTIME
  if [ "$(label_of "$tag")" = "$key" ]; then
    say "$tag: up to date ($(size_of "$tag"))"
    return
  fi
  built=1
  # Host networking: npm ci reaches the registry as this machine does (no NAT here).
  "$docker" build --network host --progress plain \
    --build-arg SERVICE="$service" --build-arg NODE_IMAGE="$base" \
    --build-arg FRONTEND_BUILD_IMAGE="$base" \
    --label ratesmith.source="$key" -t "$tag" . >"$cache/images/build-$service.log" 2>&1 || {
    say "$tag: the build failed; the end of $cache/images/build-$service.log:"
    tail -n 30 "$cache/images/build-$service.log" >&2
    exit 1
  }
  say "$tag: built in $(since "$t") s, $(size_of "$tag")"
  # Each build adds about 12 GB of cache on vfs (see cleanup); `--keep-storage` frees
  # none of it, so all of it goes: npm downloads again for the next image.
  "$docker" builder prune -af >/dev/null
}

# A backing server's image: its Go binary, run as uid 1000, on an empty image when the
# binary is static (nats-server), else on the base (FerretDB links glibc).
# $1: name, $2: the binary.
build_server() {
  local name=$1 binary=$2 version tag key t context from=scratch
  version=${binary##*/$name-}
  tag="ratesmith-local/$name:$version"
  # An ELF program header names an interpreter (ld-linux) only in a dynamically linked binary.
  if LC_ALL=C grep -q 'ld-linux' <(head -c 4096 "$binary"); then from=$base; fi
  key=$( (cat "$binary" "$0" && echo "$from") | sha256sum | cut -c1-16)
  t=$EPOCHREALTIME
  if [ "$(label_of "$tag")" = "$key" ]; then
    say "$tag: up to date ($(size_of "$tag"))"
    return
  fi
  built=1
  context=$(mktemp -d)
  cp "$binary" "$context/server"
  printf '%s\n' "FROM $from" 'COPY server /server' 'USER 1000:1000' 'ENTRYPOINT ["/server"]' \
    >"$context/Dockerfile"
  "$docker" build -q --label ratesmith.source="$key" -t "$tag" "$context" >/dev/null
  rm -rf "$context"
  say "$tag: built in $(since "$t") s, $(size_of "$tag")"
}

# What the builds leave behind: BuildKit's cache (every stage's layers, the build stages
# with all the dev dependencies) and images replaced by newer builds. Docker's vfs storage
# keeps each layer as a whole copy of the files: about 12 GB of cache per service image,
# so one build of the five left 75 GB here before the cache was removed after each image
# (build_service); the images themselves take about 1.5 GB each. The next build after a change
# starts again from the base (npm ci included); an unchanged image is not rebuilt at all.
cleanup() {
  [ -n "$built" ] || return 0
  say 'removing the build cache and the images newer builds replaced'
  "$docker" builder prune -af >/dev/null
  "$docker" image prune -f --filter label=ratesmith.source >/dev/null
  local old
  for old in $("$docker" images --format '{{.Repository}}:{{.Tag}}' ratesmith-local/node); do
    [ "$old" = "$base" ] || "$docker" rmi "$old" >/dev/null
  done
  find "$cache/images" -name 'base-*' ! -name "base-${base##*-}.*" -delete
}

mkdir -p "$cache/images"
built=
trap cleanup EXIT
t_all=$EPOCHREALTIME
for service in "${services[@]}"; do build_service "$service"; done
if [ -n "$all" ]; then
  build_server nats-server "$(bash scripts/ensure-nats-server.sh)"
  build_server ferretdb "$(bash scripts/ensure-ferretdb.sh)"
fi
say "all images: $(since "$t_all") s"
