import { describe, expect, it } from 'vitest';
import { EARLY_EVENT_LIMIT } from './event-relay.js';
import { SessionLifecycle } from './session-lifecycle.js';
import type { TransportEvent } from './transport-events.js';

const WINDOW = { id: 'w1', title: 'App', url: 'about:blank' };
const output = (text: string): TransportEvent => ({ type: 'output', stream: 'stdout', text });

describe('SessionLifecycle', () => {
  it('holds what came before the subscription, bounded, and routes each event to the owners of its topic only', () => {
    const life = new SessionLifecycle('delivered');
    for (let line = 0; line < EARLY_EVENT_LIMIT; line++) life.emit(output(String(line)));
    life.emit({ type: 'window-opened', window: WINDOW });
    const outputs: string[] = [];
    const windows: string[] = [];
    const order: string[] = [];
    life.events.subscribe([
      { output: (event) => outputs.push(event.text), 'window-opened': () => order.push('first') },
      { 'window-opened': (event) => windows.push(event.window.id) && order.push('second') },
    ]);
    expect(outputs).toHaveLength(EARLY_EVENT_LIMIT - 1);
    expect(outputs[0]).toBe('1');
    expect(windows).toEqual(['w1']);
    expect(order).toEqual(['first', 'second']);
  });

  it('reports a loss once, and none after the session ended on its own', () => {
    const life = new SessionLifecycle('delivered');
    const reasons: string[] = [];
    life.events.subscribe([{ disconnected: (event) => reasons.push(event.reason) }]);
    life.lost('port closed');
    life.lost('again');
    expect(reasons).toEqual(['port closed']);

    const detached = new SessionLifecycle('delivered');
    detached.events.subscribe([{ disconnected: (event) => reasons.push(event.reason) }]);
    expect(detached.end()).toBe(true);
    detached.lost('after detach');
    expect(reasons).toEqual(['port closed']);
  });

  it.each([
    ['delivered', ['exited']],
    ['dropped', []],
  ] as const)(
    'releases once however often disposed; events during the release are %s',
    async (mode, heard) => {
      const life = new SessionLifecycle(mode);
      const seen: string[] = [];
      life.events.subscribe([{ exited: (event) => seen.push(event.type) }]);
      let releases = 0;
      const release = async () => {
        releases += 1;
        await Promise.resolve();
        life.emit({ type: 'exited', exit: { code: 0, signal: null } });
      };
      await Promise.all([life.dispose(release), life.dispose(release)]);
      await life.dispose(release);
      life.emit({ type: 'exited', exit: { code: 0, signal: null } });
      expect(releases).toBe(1);
      expect(life.ended).toBe(true);
      expect(seen).toEqual(heard);
    },
  );
});
