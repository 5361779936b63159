#!/usr/bin/env bash
# Makes sure of the programs the tests run beside node_modules, before any test starts:
# `npm test` and the other test and bench scripts of package.json run it first.
#
#   bash scripts/ensure-test-tools.sh [tool ...]   # default: all of them
#
# tools: chromium     the browser tests (frontend/test/harness.ts, scripts/lighthouse.mjs)
#        promtool     the alert rules' checks (charts/test/alerts.int.spec.ts)
#        nats-server  the pinned one (scripts/ensure-nats-server.sh; tools/devstack/src/servers.ts)
#        ferretdb     scripts/ensure-ferretdb.sh
#        postgresql   scripts/ensure-postgres.sh (FerretDB's storage, tools/devstack/src/servers.ts)
#        helm         scripts/ensure-helm.sh (the chart tests)
#        images       scripts/images.sh (the images' suite, tools/devstack/test/images.int.spec.ts):
#                     a Docker engine (scripts/ensure-docker.sh starts one as root), the
#                     local base and every image, built once and kept while what they are
#                     built from is unchanged; its timings go to $cache/images/last-run.log
#
# What is there is used when its version fits (Chromium 156 or newer, promtool 2.42 or
# newer: the versions the tests were written against, Debian 12's; nats-server,
# FerretDB and helm: their scripts' pinned versions). Otherwise, as root, Chromium and
# promtool come from Debian's packages (`chromium`, `prometheus`), and the others are
# built once with Go into the shared tool cache. apt's and Go's output goes to logs in
# that cache; one progress line per install. When something is missing and cannot be
# installed here (not root, no network, no Go), one line per tool says what to install,
# and the script exits 1 before any test runs.
#
# It runs before every `npm test`, so the path where everything is present is kept to
# a few processes: the versions of Chromium, promtool and helm (each takes tens to
# hundreds of milliseconds to ask) are remembered in $cache/test-tools.versions, and the Go-built tools' cached binaries are looked for
# here before their scripts are run.
set -uo pipefail
# The repository, without a process (run as scripts/ensure-test-tools.sh or from scripts/).
if [[ ${BASH_SOURCE[0]} == */* ]]; then here=${BASH_SOURCE[0]%/*}/..; else here=..; fi
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
[ -d "$cache" ] || mkdir -p "$cache"
apt_log="$cache/test-tools-apt.log"
versions="$cache/test-tools.versions"
began=${EPOCHREALTIME/./}
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(chromium promtool nats-server ferretdb postgresql helm images)

min_chromium=156
min_promtool=2.42
failed=()
found=()

say() { echo "ensure-test-tools: $*" >&2; }
fail() { failed+=("$1"); }

# The versions remembered: path -> version. They hold while neither the binary nor
# dpkg's database (any apt install or upgrade) changed after the file was written.
declare -A known=()
if [ -f "$versions" ] && ! [ /var/lib/dpkg/status -nt "$versions" ]; then
  while read -r path v; do
    if [ -x "$path" ] && ! [ "$path" -nt "$versions" ]; then known[$path]=$v; fi
  done <"$versions"
fi

# Sets REPLY to the version a binary printed last time (see above); else asks it.
# $1: path, $2: a command printing its version number, given the path as $1.
version_of() {
  local path=$1 probe=$2 v
  REPLY=
  [ -x "$path" ] || return 1
  if [ -n "${known[$path]:-}" ]; then
    REPLY=${known[$path]}
    return 0
  fi
  v=$(bash -c "$probe" _ "$path" 2>/dev/null | head -n 1)
  [ -n "$v" ] || return 1
  known[$path]=$v
  for path in "${!known[@]}"; do echo "$path ${known[$path]}"; done >"$versions.$$" &&
    mv "$versions.$$" "$versions"
  REPLY=$v
}

# Sets REPLY to the first executable $1 on PATH, without a process.
on_path() {
  local dir IFS=:
  for dir in $PATH; do
    if [ -x "${dir:-.}/$1" ]; then
      REPLY=${dir:-.}/$1
      return 0
    fi
  done
  return 1
}

# Whether dotted version $1 is at least $2.
at_least() {
  local IFS=. i
  local -a a=($1) b=($2)
  for i in 0 1 2 3; do
    ((10#${a[i]:-0} > 10#${b[i]:-0})) && return 0
    ((10#${a[i]:-0} < 10#${b[i]:-0})) && return 1
  done
  return 0
}

# Sets REPLY to the `version=` of one of the scripts/ensure-*.sh.
script_version() {
  local line
  REPLY=
  while IFS= read -r line; do
    if [[ $line == version=* ]]; then
      REPLY=${line#version=}
      return
    fi
  done <"$here/scripts/ensure-$1.sh"
}

can_apt() { [ "$EUID" = 0 ] && command -v apt-get >/dev/null 2>&1; }

apt_updated=
# Installs Debian package $1 with apt-get (root only); its output goes to $apt_log.
apt_install() {
  local t0=$SECONDS
  say "installing Debian's $1 with apt-get (first run only, a minute or two; log: $apt_log)..."
  if [ -z "$apt_updated" ]; then
    apt-get update -qq >>"$apt_log" 2>&1 || return 1
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >>"$apt_log" 2>&1 || return 1
  say "installed $1 ($((SECONDS - t0)) s)"
}

chromium_version() {
  version_of "$1" '"$1" --version | sed -n "s/^[^0-9]*\([0-9][0-9.]*\).*/\1/p"'
}

ensure_chromium() {
  local path="${CHROMIUM_PATH:-/usr/bin/chromium}" v=
  chromium_version "$path" && v=$REPLY && at_least "$v" "$min_chromium" && {
    found+=("Chromium $v")
    return
  }
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    fail "Chromium: CHROMIUM_PATH=$path is ${v:+Chromium $v}${v:-not a Chromium that runs}; the browser tests need Chromium $min_chromium or newer there (or unset CHROMIUM_PATH for Debian's /usr/bin/chromium)"
    return
  fi
  if ! can_apt; then
    fail "Chromium ${v:+$v is too old}${v:-is missing}: install Debian's ($min_chromium or newer) with \`sudo apt-get install -y chromium\`, or set CHROMIUM_PATH to a Chromium $min_chromium or newer"
    return
  fi
  if ! apt_install chromium; then
    fail "Chromium: \`apt-get install -y chromium\` failed (no network? see $apt_log): install it, or set CHROMIUM_PATH to a Chromium $min_chromium or newer"
    return
  fi
  v=
  chromium_version "$path" && v=$REPLY && at_least "$v" "$min_chromium" && {
    found+=("Chromium $v")
    return
  }
  fail "Chromium: after \`apt-get install -y chromium\`, $path is ${v:-missing}; the browser tests need $min_chromium or newer: set CHROMIUM_PATH to one"
}

promtool_path() { on_path promtool || { [ -x /usr/bin/promtool ] && REPLY=/usr/bin/promtool; }; }
promtool_version() {
  version_of "$1" '"$1" --version 2>&1 | sed -n "s/^promtool, version \([0-9][0-9.]*\).*/\1/p"'
}

ensure_promtool() {
  local v=
  promtool_path && promtool_version "$REPLY" && v=$REPLY && at_least "$v" "$min_promtool" && {
    found+=("promtool $v")
    return
  }
  if ! can_apt; then
    fail "promtool ${v:+$v is too old}${v:-is missing}: install Debian's prometheus ($min_promtool or newer) with \`sudo apt-get install -y prometheus\`, or put a promtool $min_promtool or newer on PATH"
    return
  fi
  if ! apt_install prometheus; then
    fail "promtool: \`apt-get install -y prometheus\` failed (no network? see $apt_log): install it, or put a promtool $min_promtool or newer on PATH"
    return
  fi
  v=
  promtool_path && promtool_version "$REPLY" && v=$REPLY && at_least "$v" "$min_promtool" && {
    found+=("promtool $v")
    return
  }
  fail "promtool: after \`apt-get install -y prometheus\`, promtool is ${v:-missing}; the alert tests need $min_promtool or newer on PATH"
}

# One of the Go-built tools: its cached binary when there, else scripts/ensure-<name>.sh,
# which prints its progress line and, when it cannot, why (on stderr).
# $1: script name, $2: label, $3: the cached binary's name, $4: what to do instead.
ensure_built() {
  local name=$1 label=$2 cached=$3 instead=$4
  script_version "$name"
  local version=$REPLY
  if [ -n "$cached" ] && [ -x "$cache/bin/$cached" ]; then
    found+=("$label $version")
  elif bash "$here/scripts/ensure-$name.sh" >/dev/null; then
    found+=("$label $version")
  else
    fail "$label $version could not be had (above): $instead"
  fi
}

ensure_helm() {
  local cached= version
  script_version helm
  version=$REPLY
  # ensure-helm.sh prefers a Helm 3 on PATH: it decides when there is one.
  if ! command -v helm >/dev/null 2>&1 && [ -x "$cache/bin/helm" ] &&
    version_of "$cache/bin/helm" '"$1" version --template "{{.Version}}"' && [ "$REPLY" = "$version" ]; then
    cached=helm
  fi
  ensure_built helm helm "$cached" "building it needs Go and the Go module proxy; install Go, or put Helm 3 on PATH"
}

for tool in "${tools[@]}"; do
  case "$tool" in
    chromium) ensure_chromium ;;
    promtool) ensure_promtool ;;
    nats-server)
      if [ -n "${NATS_SERVER_BIN:-}" ]; then
        found+=("nats-server $NATS_SERVER_BIN (NATS_SERVER_BIN)")
      else
        script_version nats-server
        ensure_built nats-server nats-server "nats-server-$REPLY" \
          "building it needs Go 1.26 or newer (its go.mod asks for it) and the Go module proxy; install Go, or set NATS_SERVER_BIN to a nats-server $REPLY"
      fi
      ;;
    ferretdb)
      if [ -n "${FERRETDB_BIN:-}" ]; then
        found+=("FerretDB $FERRETDB_BIN (FERRETDB_BIN)")
      else
        script_version ferretdb
        ensure_built ferretdb FerretDB "ferretdb-$REPLY" \
          "building it needs Go and the Go module proxy; install Go, or set FERRETDB_BIN to a FerretDB $REPLY binary"
      fi
      ;;
    postgresql)
      if bash "$here/scripts/ensure-postgres.sh" >/dev/null; then
        found+=("PostgreSQL")
      else
        fail "PostgreSQL could not be had (above)"
      fi
      ;;
    helm) ensure_helm ;;
    images)
      # Its lines (base, each image: built or up to date, its size, seconds) are worth
      # seeing in CI's log: the images take minutes the first time.
      mkdir -p "$cache/images"
      if bash "$here/scripts/images.sh" 2> >(tee "$cache/images/last-run.log" >&2) >/dev/null; then
        found+=("images")
      else
        fail "the images could not be built (above; README.md, Images)"
      fi
      ;;
    *)
      say "unknown tool '$tool' (chromium, promtool, nats-server, ferretdb, postgresql, helm, images)"
      exit 2
      ;;
  esac
done

if [ ${#failed[@]} -gt 0 ]; then
  for line in "${failed[@]}"; do say "$line"; done
  say "no test was run (README.md, Troubleshooting)"
  exit 1
fi
ms=$(((${EPOCHREALTIME/./} - began) / 1000))
printf -v summary '%s, ' "${found[@]}"
say "${summary%, } ($ms ms)"
