#!/usr/bin/env bash
# Makes sure a Docker engine answers, for `npm run images` (scripts/images.sh) and the
# images' testcontainers suite (tools/devstack/test/images.int.spec.ts).
#
#   bash scripts/ensure-docker.sh   # prints the Docker client to use on stdout
#
# An engine that answers is used as it is. Otherwise, as root, Debian's docker.io is
# installed when missing and its daemon started in the background with
# `dockerd --iptables=false --storage-driver=vfs` (no NAT and no overlay mounts: what
# runs on this project's machines), its log in $cache/dockerd.log; it says so on stderr.
# The client is Debian's /usr/bin/docker: it carries BuildKit (the Dockerfile's
# `RUN --mount=type=cache`), which another `docker` first on PATH may lack.
set -uo pipefail
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
mkdir -p "$cache"
say() { echo "ensure-docker: $*" >&2; }
client=${DOCKER_CLIENT:-/usr/bin/docker}

if [ -x "$client" ] && "$client" version --format '{{.Server.Version}}' >/dev/null 2>&1; then
  echo "$client"
  exit 0
fi
if [ "$EUID" != 0 ]; then
  say "no Docker engine answers; start one (as root: dockerd --iptables=false --storage-driver=vfs), or install Debian's docker.io"
  exit 1
fi
if ! [ -x /usr/sbin/dockerd ] || ! [ -x "$client" ]; then
  say "installing Debian's docker.io with apt-get (first run only; log: $cache/docker-apt.log)..."
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io; } \
    >>"$cache/docker-apt.log" 2>&1 || {
    say "apt-get install docker.io failed (see $cache/docker-apt.log)"
    exit 1
  }
fi
say "no Docker engine was running: starting dockerd --iptables=false --storage-driver=vfs (log: $cache/dockerd.log)"
nohup /usr/sbin/dockerd --iptables=false --storage-driver=vfs >>"$cache/dockerd.log" 2>&1 </dev/null &
for _ in $(seq 1 60); do
  if "$client" version --format '{{.Server.Version}}' >/dev/null 2>&1; then
    say "dockerd $("$client" version --format '{{.Server.Version}}') is up (pid $!)"
    echo "$client"
    exit 0
  fi
  sleep 0.5
done
say "dockerd did not answer within 30 s (see the end of $cache/dockerd.log):"
tail -n 20 "$cache/dockerd.log" >&2
exit 1
