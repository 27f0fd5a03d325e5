#!/usr/bin/env python3
"""Drives the demo's fixture app through Stagegraph, as an agent written in Python would.

    npm start                      # the demo gateway: the fixture app as session s1
    /usr/bin/python3 clients/python/example_flow.py --url http://127.0.0.1:4700/graphql

Reads the sessions and the outline, fills the name and saves a draft as ONE multi-step mutation, expects
the status text and the field's value, watches the console line a click logs, and prints a summary. Exits
1 on any failure. (It saves a draft rather than clicking Submit: "submit" is a destructive word to the
default policy, so the demo asks an approver first, and this example runs unattended.)
"""

import argparse
import asyncio
import sys
from datetime import datetime, timezone

from stagegraph_client import StagegraphClient, StagegraphError

SESSIONS = "query Sessions { sessions { id status transport app { name standIn } } }"

OUTLINE = """
query Outline($session: ID) {
  session(id: $session) { activeWindow { title snapshot(interactiveOnly: true) { outline } } }
}"""

# Each field of a mutation is a step, run in order; a failed step skips the later ones (STEP_SKIPPED).
FILL_AND_SAVE = """
mutation FillAndSave($session: ID, $name: String!) {
  fill(session: $session, target: { testId: "name" }, value: $name) { target { ref name } }
  click(session: $session, target: { role: "button", name: "Save draft" }) { target { ref name } diff { outline } }
}"""

EXPECT_SAVED = """
mutation ExpectSaved($session: ID, $name: String!) {
  status: expect(session: $session, kind: TEXT, target: { testId: "status" }, equals: "Clicked: save-draft") {
    actual
  }
  name: expect(session: $session, kind: VALUE, target: { testId: "name" }, equals: $name) { actual }
}"""

CONSOLE = """
subscription Console($session: ID, $since: DateTime) {
  console(session: $session, textContains: "fixture: button clicked", replay: true, since: $since) {
    entry { type text }
  }
}"""

CLICK_LOG = """
mutation ClickLog($session: ID) { click(session: $session, target: { testId: "log" }) { target { name } } }"""


async def first_console_line(client, session, since, timeout):
    """Subscribes, clicks the Log button, and answers the console entry it logged.

    `replay` with `since` makes it independent of whether the subscription is in place before the click.
    """
    events = client.subscribe(CONSOLE, {"session": session, "since": since})
    first = asyncio.ensure_future(events.__anext__())
    try:
        await asyncio.get_running_loop().run_in_executor(None, client.mutate, CLICK_LOG, {"session": session})
        event = await asyncio.wait_for(first, timeout)
        return event["console"]["entry"]
    finally:
        first.cancel()
        await events.aclose()


def run(client, name, timeout):
    started = datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
    sessions = client.query(SESSIONS)["sessions"]
    running = [session for session in sessions if session["status"] == "RUNNING"]
    if not running:
        raise StagegraphError(f"no running session among {sessions}", code="SESSION_NOT_FOUND")
    session = running[0]
    window = client.query(OUTLINE, {"session": session["id"]})["session"]["activeWindow"]
    outline = window["snapshot"]["outline"]
    steps = client.steps(FILL_AND_SAVE, {"session": session["id"], "name": name})
    expected = client.steps(EXPECT_SAVED, {"session": session["id"], "name": name})
    entry = asyncio.run(first_console_line(client, session["id"], started, timeout))
    return {
        "session": session,
        "window": window["title"],
        "outline_lines": len(outline.splitlines()),
        "steps": steps,
        "expected": expected,
        "console": entry,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:4700/graphql", help="the gateway's GraphQL URL")
    parser.add_argument("--token", default=None, help="an agent token, sent as Authorization: Bearer")
    parser.add_argument("--name", default="Ada Lovelace", help="what to fill into the form's name field")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the console event")
    options = parser.parse_args()
    client = StagegraphClient(options.url, options.token)
    try:
        summary = run(client, options.name, options.timeout)
    except StagegraphError as error:
        print(f"stagegraph python example: FAILED\n{error}", file=sys.stderr)
        return 1
    except (asyncio.TimeoutError, OSError) as error:
        print(f"stagegraph python example: FAILED\n{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        client.close()
    session = summary["session"]
    app = session["app"]["name"] + (" (Electron-API stand-in)" if session["app"]["standIn"] else "")
    click = summary["steps"]["click"]
    print("stagegraph python example: OK")
    print(f"  session:  {session['id']} {session['status']} via {session['transport']}, app {app}")
    print(f"  outline:  {summary['outline_lines']} interactive lines of \"{summary['window']}\"")
    print(f"  steps:    fill {summary['steps']['fill']['target']['ref']}, click {click['target']['ref']}"
          f" \"{click['target']['name']}\" in one mutation")
    expected = summary["expected"]
    print(f"  expect:   status reads \"{expected['status']['actual']}\", name holds \"{expected['name']['actual']}\"")
    print(f"  console:  {summary['console']['type']} \"{summary['console']['text']}\"")
    return 0


if __name__ == "__main__":
    sys.exit(main())
