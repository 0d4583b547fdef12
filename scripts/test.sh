#!/usr/bin/env bash
# `npm test`: every test, in two lanes side by side (README "Tests"). The browser tests (one file
# at a time, each waiting on a page and a server in turn) keep about half of two cores busy; the
# contract, server and web projects are CPU-bound and run beside them under `nice`, so they take
# the CPU the browser lane leaves idle and the browser timings see nearly the machine they have
# alone; the server's tests that drive Chromium (PDFs) run beside the browser lane at its priority.
# Arguments go to every vitest run (a filter: `npm test -- dashboard`).
set -uo pipefail
cd "$(dirname "$0")/.."
# A filter may match files of one lane only: the others then have nothing to run, which is no failure.
if [ "$#" -gt 0 ]; then set -- --passWithNoTests "$@"; fi

# One build before both lanes: their set-ups then find it current instead of racing to build it.
node scripts/build-if-stale.mjs || exit 1

browser_log=apps/web/test-results/browser-tests.log
mkdir -p "$(dirname "$browser_log")"
echo "browser tests in the background, their output in $browser_log (printed when they end)"
npx vitest run --project e2e --no-cache "$@" >"$browser_log" 2>&1 &
browser=$!

# The server's few tests that drive a real Chromium (PDFs) run beside the browser lane, at its
# priority: under the unit lane's `nice` the worker driving their Chromium would wait behind the
# browser lane's server, with a launch and a render bounded by the product's limits
# (vitest.config.ts `server-chromium`).
chromium_log=apps/web/test-results/server-chromium-tests.log
npx vitest run --project server-chromium --no-cache "$@" >"$chromium_log" 2>&1 &
chromium=$!

( renice -n 10 -p "$BASHPID" >/dev/null; exec npx vitest run --project contract --project server --project web --project web-shared "$@" )
unit=$?

wait "$chromium"
chromium_rc=$?
cat "$chromium_log"
wait "$browser"
browser_rc=$?
cat "$browser_log"
if [ "$unit" -ne 0 ] || [ "$chromium_rc" -ne 0 ] || [ "$browser_rc" -ne 0 ]; then
  echo "tests failed (contract, server and web: exit $unit; server with Chromium: exit $chromium_rc; browser: exit $browser_rc)"
  exit 1
fi
