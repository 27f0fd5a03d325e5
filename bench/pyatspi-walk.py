#!/usr/bin/python3
"""The reference for bench/atspi-snapshot.ts and bench/atspi-dogtail.ts: one window's tree read with plain
pyatspi, as its users write it.

Recursive, one call after another: for every node its role, name, states, child count and extents, the text
of text fields and the value of spin buttons — what the gateway's desktop snapshot reads. Run with the
system Python (it has gi and pyatspi: `apt-get install -y python3-pyatspi`) on the desktop named by DISPLAY
and DBUS_SESSION_BUS_ADDRESS (AT_SPI_BUS_ADDRESS, when set, names the accessibility bus directly):

    /usr/bin/python3 bench/pyatspi-walk.py APP_NAME WINDOW_TITLE

Prints one JSON line: {"nodes": N, "ms": WALK_MS, "findMs": MS_TO_FIND_THE_WINDOW}. The walk's time starts
once the window is found, so it compares with a snapshot of a window the gateway already knows.
"""
import json
import sys
import time

import pyatspi

TEXT_ROLES = {pyatspi.ROLE_TEXT, pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_ENTRY}


def find_window(app_name, title):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is None or app.name != app_name:
            continue
        for window in app:
            if window is not None and window.name == title:
                return window
    raise SystemExit(f"no window {title!r} of an app named {app_name!r} on this desktop")


def read(node):
    role = node.getRole()
    entry = {
        "role": node.getRoleName(),
        "name": node.name,
        "states": [pyatspi.stateToString(state) for state in node.getState().getStates()],
        "childCount": node.childCount,
    }
    try:
        extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        entry["extents"] = [extents.x, extents.y, extents.width, extents.height]
    except NotImplementedError:
        pass
    if role in TEXT_ROLES:
        entry["text"] = node.queryText().getText(0, -1)
    elif role == pyatspi.ROLE_SPIN_BUTTON:
        entry["value"] = node.queryValue().currentValue
    return entry


def walk(node, out):
    out.append(read(node))
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            walk(child, out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: pyatspi-walk.py APP_NAME WINDOW_TITLE")
    sys.setrecursionlimit(10_000)
    started = time.perf_counter()
    window = find_window(sys.argv[1], sys.argv[2])
    found = time.perf_counter()
    nodes = []
    walk(window, nodes)
    done = time.perf_counter()
    print(
        json.dumps(
            {"nodes": len(nodes), "ms": (done - found) * 1000, "findMs": (found - started) * 1000}
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
