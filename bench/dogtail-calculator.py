#!/usr/bin/python3
"""The dogtail side of bench/atspi-dogtail.ts: the GTK4 calculator read and driven as dogtail's users write it.

Run with the system Python (`apt-get install -y python3-dogtail`) on the desktop named by DISPLAY and
DBUS_SESSION_BUS_ADDRESS:

    /usr/bin/python3 bench/dogtail-calculator.py walk APP_NAME WINDOW_TITLE
    /usr/bin/python3 bench/dogtail-calculator.py click APP_NAME WINDOW_TITLE EXPECTED KEY...

`walk` reads the window's whole tree through dogtail's Node: for every node its role name, name, states,
position and size, and the text of text roles (what bench/pyatspi-walk.py and the gateway's snapshot read).
`click` presses each KEY with `child(roleName='push button', name=KEY).doActionNamed('click')`, then waits
for a label named EXPECTED with `child(roleName='label', name=EXPECTED)`. With BENCH_DOGTAIL_NO_DELAYS=1
dogtail's own pauses (config.actionDelay, 1 s after every action, and the search back-off) are set to 0.

Prints one JSON line: {"nodes": N, "ms": MS, "findMs": MS_TO_FIND_THE_WINDOW, "importMs": MS}. The timed part
starts once the window is found, so it compares with a session that already knows the window.
"""
import json
import os
import sys
import time

started = time.perf_counter()
from dogtail.config import config  # noqa: E402

# The owned desktop has no GNOME settings saying accessibility is on; dogtail would exit on import, although
# every app on that desktop talks to the accessibility bus.
config.checkForA11y = False
# dogtail logs every action and search to stdout and to a file by default; stdout carries the figures.
config.logDebugToStdOut = False
config.logDebugToFile = False
if os.environ.get("BENCH_DOGTAIL_NO_DELAYS") == "1":
    config.actionDelay = 0
    config.defaultDelay = 0
    config.searchBackoffDuration = 0.01
    config.searchCutoffCount = 500

import pyatspi  # noqa: E402
from dogtail import tree  # noqa: E402

imported = time.perf_counter()
TEXT_ROLES = {"text", "password text", "entry"}


def read(node):
    entry = {
        "role": node.roleName,
        "name": node.name,
        "states": [pyatspi.stateToString(state) for state in node.getState().getStates()],
    }
    try:
        entry["position"] = node.position
        entry["size"] = node.size
    except NotImplementedError:
        pass
    if entry["role"] in TEXT_ROLES:
        entry["text"] = node.text
    return entry


def walk(node, out):
    out.append(read(node))
    for child in node.children:
        if child is not None:
            walk(child, out)


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("walk", "click"):
        raise SystemExit(__doc__)
    sys.setrecursionlimit(10_000)
    mode, app_name, title = sys.argv[1:4]
    before_find = time.perf_counter()
    window = tree.root.application(app_name).child(name=title, recursive=False)
    found = time.perf_counter()
    nodes = []
    if mode == "walk":
        walk(window, nodes)
    else:
        expected, keys = sys.argv[4], sys.argv[5:]
        for key in keys:
            window.child(roleName="push button", name=key).doActionNamed("click")
        nodes.append(window.child(roleName="label", name=expected).name)
    done = time.perf_counter()
    print(
        json.dumps(
            {
                "nodes": len(nodes),
                "ms": (done - found) * 1000,
                "findMs": (found - before_find) * 1000,
                "importMs": (imported - started) * 1000,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
