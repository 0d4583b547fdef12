#!/usr/bin/env bash
# `npm test`: every test, in two lanes side by side (README "Tests"). The browser tests (one file
# at a time, each waiting on a page and a server in turn) keep about half of two cores busy; the
# contract, server and web projects are CPU-bound and run beside them under `nice`, so they take
# the CPU the browser lane leaves idle and the browser timings see nearly the machine they have
# alone; the server's tests that drive Chromium (PDFs) run beside the browser lane at its priority.
# Arguments go to every vitest run (a filter: `npm test -- dashboard`).
#
# TEST_AFTER_BROWSER names a command (CI's PostgreSQL lane, .ci/postgres-tests) run as a third
# lane when the browser and Chromium lanes have ended, under the unit lane's `nice` and beside
# what is left of it: the two lanes share the CPU the browser lane gave back, instead of the
# command waiting for the whole unit lane (bench/README.md "Twelfth pass").
set -uo pipefail
cd "$(dirname "$0")/.."
# A filter may match files of one lane only: the others then have nothing to run, which is no failure.
if [ "$#" -gt 0 ]; then set -- --passWithNoTests "$@"; fi

# One build before both lanes: their set-ups then find it current instead of racing to build it.
node scripts/build-if-stale.mjs || exit 1

logs=apps/web/test-results
mkdir -p "$logs"
browser_log=$logs/browser-tests.log
chromium_log=$logs/server-chromium-tests.log
after_log=$logs/after-browser-tests.log
# Each lane's exit code, written by the lane (the background lanes run in subshells).
codes=$(mktemp -d)
trap 'rm -rf "$codes"' EXIT

# Runs one lane: its output into its log (`tee`: also on the terminal), then one line with its
# times, exit code and CPU (its processes' user and system time); its exit code into $codes.
lane() (
  name=$1 log=$2 show=$3
  shift 3
  begin=$(date +%s)
  echo "lane $name: started $(date -u +%T)"
  if [ "$show" = tee ]; then "$@" 2>&1 | tee "$log"; else "$@" >"$log" 2>&1; fi
  rc=${PIPESTATUS[0]}
  echo "$rc" >"$codes/$name"
  # `times` in this shell, not in a pipe's or a substitution's subshell (whose children are none).
  times >"$codes/$name.cpu"
  cpu=$(tail -1 "$codes/$name.cpu")
  echo "lane $name: ended $(date -u +%T), exit $rc, $(($(date +%s) - begin)) s, CPU of its processes (user, system) $cpu"
)

echo "browser tests in the background, their output in $browser_log (printed when they end)"
(
  # The server's few tests that drive a real Chromium (PDFs) run beside the browser lane, at its
  # priority: under the unit lane's `nice` the worker driving their Chromium would wait behind the
  # browser lane's server, with a launch and a render bounded by the product's limits
  # (vitest.config.ts `server-chromium`).
  lane server-chromium "$chromium_log" log npx vitest run --project server-chromium --no-cache "$@" &
  lane browser "$browser_log" log npx vitest run --project e2e --no-cache "$@"
  wait
  if [ -n "${TEST_AFTER_BROWSER:-}" ]; then
    renice -n 10 -p "$BASHPID" >/dev/null
    lane after-browser "$after_log" log "$TEST_AFTER_BROWSER" "$@"
  fi
) &
side=$!

(
  renice -n 10 -p "$BASHPID" >/dev/null
  lane unit "$logs/unit-tests.log" tee npx vitest run --project contract --project server --project web --project web-shared "$@"
)

wait "$side"
cat "$chromium_log" "$browser_log"
[ -n "${TEST_AFTER_BROWSER:-}" ] && cat "$after_log"
code() { cat "$codes/$1" 2>/dev/null || echo 'none'; }
summary="contract, server and web: exit $(code unit); server with Chromium: exit $(code server-chromium); browser: exit $(code browser)"
[ -n "${TEST_AFTER_BROWSER:-}" ] && summary+="; $TEST_AFTER_BROWSER: exit $(code after-browser)"
for name in unit server-chromium browser ${TEST_AFTER_BROWSER:+after-browser}; do
  if [ "$(code "$name")" != 0 ]; then
    echo "tests failed ($summary)"
    exit 1
  fi
done
echo "tests passed ($summary)"
