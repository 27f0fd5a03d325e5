#!/bin/sh
# Starts an Electron app (or the stand-in) in a PID namespace of its own for Playwright's Electron launch,
# which puts its own switches (--inspect=0 --remote-debugging-port=0) first: the executable and the
# namespace tool's words come in the environment (isolation.ts), removed before the app starts. exec keeps
# one process, so the pid Playwright spawned stays the group leader the gateway stops.
executable=$STAGEGRAPH_ISOLATED_EXECUTABLE
prefix=$STAGEGRAPH_ISOLATION_PREFIX
unset STAGEGRAPH_ISOLATED_EXECUTABLE STAGEGRAPH_ISOLATION_PREFIX
# The prefix is words without spaces (unshare and its switches), split here on purpose.
# shellcheck disable=SC2086
exec $prefix "$executable" "$@"
