import { parse } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Subscription, subscribe, wsClient } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { DEMO_READY_TIMEOUT_MS, type ServedDemo, serveDemo } from './helpers/served-demo.js';

// snapshotChanges(quiet: true) on `stagegraph serve --demo`, as an observer watches an agent: the demo page's
// tick counter (bumped by the fixture's main process every 500 ms) is left out, and every change the agent
// makes is delivered. Once, reads made while an action ran (or asked before it and recorded after it) passed
// for reads with no action between, so what every click or keystroke changed was learnt as changing on its
// own, and the agent's next actions went unseen.

const CLICKS = 6;
/** Ticks waited for before each click: reads of the stream with no action between, which teach it the ticker. */
const TICKS_BEFORE_CLICK = 3;
/** Clicks after which the ticker has surely been learnt (two ticks between reads are enough). */
const CLICKS_TO_LEARN = 2;
/**
 * graphql-ws does not say when a subscription is live, so the first click is repeated after this long
 * without its change (each attempt still ends as soon as the change arrives).
 */
const ATTEMPT_MS = 5_000;
/** Typed with a pause between keys, so the stream reads the field while the typing runs. */
const TYPED = 'abcdef';
const TYPING_DELAY_MS = 150;
const TYPINGS = 3;
/** Safety net only: a loaded machine delivers within seconds what a quiet one does at once. */
const EVENT_DEADLINE_MS = 60_000;

let demo: ServedDemo;
let agent: GatewayClient;
let ws: Client;

beforeAll(async () => {
  demo = await serveDemo('quiet-changes');
  agent = gatewayClient(demo.gateway.url);
  ws = wsClient(demo.gateway.wsUrl);
}, DEMO_READY_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await ws?.dispose();
  expect(await demo?.stop()).toBe(0);
});

/** Resolves once `count` more ticks have been logged than `ticks` had received when called. */
function ticksLater(ticks: Subscription<Loose>, count: number): Promise<unknown> {
  const seen = ticks.received.length;
  return ticks.waitFor((tick) => ticks.received.indexOf(tick) >= seen + count - 1, EVENT_DEADLINE_MS);
}

/** The numbers of the tasks ("Task <n>") an event adds; each click on "Add task" adds the next one. */
const tasksAdded = (event: Loose): number[] => [
  ...new Set<number>(
    event.snapshotChanges.diff.added.flatMap((node: Loose) => {
      const match = /^Task (\d+)/.exec(node.name);
      return match ? [Number(match[1])] : [];
    }),
  ),
];

const addTask = () => agent.data('mutation { click(target: { testId: "add-task" }) { target { name } } }');

/** The last task a click added once the stream delivers it, clicking again while it is not yet live. */
async function clickUntilLive(changes: Subscription<Loose>): Promise<number> {
  const deadline = Date.now() + EVENT_DEADLINE_MS;
  for (;;) {
    await addTask();
    try {
      const event = await changes.waitFor((value) => tasksAdded(value).length > 0, ATTEMPT_MS);
      return Math.max(...tasksAdded(event));
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
  }
}

describe('snapshotChanges(quiet: true) through bin/stagegraph.js serve --demo', () => {
  // First: on a fresh page nothing but the counter changes, so the first change delivered says the stream is live.
  it(
    'delivers what each slow typing leaves in the field, though the stream read the field while it ran',
    async () => {
      const changes = subscribe<Loose, Record<string, never>>(
        ws,
        parse(
          'subscription { snapshotChanges(session: "s1", quiet: true) { diff { changed { role value } } } }',
        ),
      );
      try {
        await changes.waitFor(() => true, EVENT_DEADLINE_MS);
        for (let typing = 1; typing <= TYPINGS; typing += 1) {
          await agent.data(
            `mutation { type(target: { testId: "name" }, text: "${TYPED}", delayMs: ${TYPING_DELAY_MS}) { target { name } } }`,
          );
          const value = TYPED.repeat(typing);
          await changes.waitFor(
            (event) =>
              event.snapshotChanges.diff.changed.some(
                (node: Loose) => node.role === 'textbox' && node.value === value,
              ),
            EVENT_DEADLINE_MS,
          );
        }
        expect(changes.errors).toEqual([]);
      } finally {
        changes.dispose();
      }
    },
    TYPINGS * 2 * EVENT_DEADLINE_MS,
  );

  it(
    'delivers every click that adds a task, and leaves the ticking counter out',
    async () => {
      const ticks = subscribe<Loose, Record<string, never>>(
        ws,
        parse('subscription { console(session: "s1", textContains: "fixture: tick") { entry { text } } }'),
      );
      const changes = subscribe<Loose, Record<string, never>>(
        ws,
        parse(
          'subscription { snapshotChanges(session: "s1", quiet: true) { diff { added { role name } leftOut } } }',
        ),
      );
      try {
        const firstTask = await clickUntilLive(changes);
        const delivered: Loose[] = [];
        for (let click = 1; click <= CLICKS; click += 1) {
          await ticksLater(ticks, TICKS_BEFORE_CLICK);
          await addTask();
          const task = firstTask + click;
          delivered.push(
            await changes.waitFor((event) => tasksAdded(event).includes(task), EVENT_DEADLINE_MS),
          );
        }
        expect(changes.errors).toEqual([]);
        const learnt = changes.received.slice(changes.received.indexOf(delivered[CLICKS_TO_LEARN]));
        // Once learnt, the counter is never delivered on its own, and a click's diff adds its task alone:
        // a tick shows as its number's text replaced, which would be added here. Whether it ticked between
        // the reads either side of a click is up to the machine's timing, so `leftOut` may count it or not.
        expect(learnt.map(tasksAdded)).toEqual(
          learnt.map((_, index) => [firstTask + CLICKS_TO_LEARN + 1 + index]),
        );
        for (const [index, event] of learnt.entries())
          expect(event.snapshotChanges.diff.added).toEqual([
            { role: 'listitem', name: '' },
            { role: 'text', name: `Task ${firstTask + CLICKS_TO_LEARN + 1 + index}` },
            { role: 'button', name: 'Done' },
          ]);
      } finally {
        changes.dispose();
        ticks.dispose();
      }
    },
    CLICKS * 2 * EVENT_DEADLINE_MS,
  );
});
