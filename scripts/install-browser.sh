#!/usr/bin/env bash
# The browser the console's end-to-end tests and screenshots drive (through playwright-core): Debian's
# `chromium` package, since no browser download from Playwright's servers works offline or in CI here.
# Prints the browser's path. If it is missing and we are root, installs it with apt-get first.
#   scripts/install-browser.sh           install if needed, print the path
#   scripts/install-browser.sh --check   print the path, or exit 1 without installing anything
# SQUADRON_BROWSER=<path> names another Chromium build.
set -euo pipefail

find_browser() {
  if [[ -n "${SQUADRON_BROWSER:-}" && -x "${SQUADRON_BROWSER}" ]]; then echo "$SQUADRON_BROWSER"; return 0; fi
  for name in chromium chromium-browser google-chrome-stable google-chrome; do
    if path="$(command -v "$name" 2>/dev/null)"; then echo "$path"; return 0; fi
  done
  return 1
}

if find_browser; then exit 0; fi
if [[ "${1:-}" == "--check" ]]; then
  echo "no Chromium found: run scripts/install-browser.sh (as root it installs Debian's chromium), or set SQUADRON_BROWSER" >&2
  exit 1
fi
if [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null; then
  apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >&2
  find_browser && exit 0
fi
echo "no Chromium found and cannot install it here: install the 'chromium' package (or set SQUADRON_BROWSER)" >&2
exit 1
