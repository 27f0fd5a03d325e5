import { describe, expect, it } from 'vitest';
import type {
  RawNode,
  RawSnapshot,
  ResolvedNode,
  TargetQuery,
  WindowDriver,
} from '../../../transports/contract/window-driver.js';
import type { Session } from '../../sessions/session.js';
import { RefStore } from '../../snapshot/ref-store.js';
import { parseSelector } from './parser.js';
import { resolveQueryTarget } from './resolve.js';

const button = (key: number, name: string, x: number): RawNode => ({
  key,
  parent: 1,
  role: 'button',
  name,
  states: [],
  interactive: true,
  bbox: { x, y: 10, width: 50, height: 20 },
});
const ROOT: RawNode = {
  key: 1,
  parent: null,
  role: 'document',
  name: 'Page',
  states: [],
  interactive: false,
};

/** A window whose nodes the test replaces; each replacement is a change `nextChange` reports. */
class FakeWindow {
  nodes: RawNode[];
  reads = 0;
  testIds = new Map<string, number[]>();
  #changes = 0;
  #waiters: (() => void)[] = [];
  #readWaiters: (() => void)[] = [];

  constructor(nodes: RawNode[]) {
    this.nodes = nodes;
  }

  change(nodes: RawNode[]): void {
    this.nodes = nodes;
    this.#changes += 1;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves once the window has been read `count` times. */
  async read(count: number): Promise<void> {
    while (this.reads < count) await new Promise<void>((resolve) => this.#readWaiters.push(resolve));
  }

  driver(): WindowDriver {
    const driver: Partial<WindowDriver> = {
      snapshot: async (): Promise<RawSnapshot> => {
        this.reads += 1;
        for (const wake of this.#readWaiters.splice(0)) wake();
        return { documentId: 'd1', url: 'about:blank', title: '', nodes: this.nodes, detached: [] };
      },
      nextChange: (after, timeoutMs) =>
        new Promise<number>((resolve) => {
          if (after === null || after !== this.#changes) return resolve(this.#changes);
          const timer = setTimeout(() => resolve(this.#changes), timeoutMs);
          this.#waiters.push(() => {
            clearTimeout(timer);
            resolve(this.#changes);
          });
        }),
      countMatches: async (targets: readonly TargetQuery[]) =>
        targets.map(({ spec }) =>
          spec.kind === 'testId' ? (this.testIds.get(spec.testId)?.length ?? 0) : 0,
        ),
      locate: async (target: TargetQuery): Promise<ResolvedNode> => {
        const { spec } = target;
        const key = spec.kind === 'testId' ? this.testIds.get(spec.testId)?.[target.nth ?? 0] : undefined;
        const node = this.nodes.find((n) => n.key === key);
        if (!node) throw new Error('not found');
        return { documentId: 'd1', node };
      },
    };
    return driver as WindowDriver;
  }
}

const session = () => ({ id: 's1', snapshots: new RefStore('s1') }) as unknown as Session;

function resolve(window: FakeWindow, source: string, options: { nth?: number; timeoutMs?: number } = {}) {
  return resolveQueryTarget({
    session: session(),
    windowId: 'w1',
    driver: window.driver(),
    selector: parseSelector(source),
    nth: options.nth ?? null,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

describe('query target resolution', () => {
  it('hands the transport a key target and says how it was found', async () => {
    const window = new FakeWindow([ROOT, button(2, 'Save', 0), button(3, 'Delete', 60)]);
    const found = await resolve(window, 'role=button name=Delete');
    expect(found.query.spec).toMatchObject({ kind: 'key', key: 3, documentId: 'd1' });
    expect(found.query.spec.kind === 'key' && found.query.spec.ref).toMatch(/^e\d+$/);
    expect(found.resolvedBy).toEqual({ strategy: 'ROLE_NAME', confidence: 'ROLE_NAME', alternative: 0 });
  });

  it('reads the window again when it changes, until the element appears', async () => {
    const window = new FakeWindow([ROOT, button(2, 'Save', 0)]);
    const pending = resolve(window, 'role=button right-of name=Save');
    await window.read(1);
    window.change([ROOT, button(2, 'Save', 0), button(4, 'Later', 60)]);
    const found = await pending;
    expect(found.located.node.key).toBe(4);
    expect(found.resolvedBy.confidence).toBe('SPATIAL');
    expect(window.reads).toBe(2);
  });

  it('gives up at the timeout with SELECTOR_NO_MATCH and near candidates', async () => {
    const window = new FakeWindow([ROOT, button(2, 'Save', 0)]);
    await expect(resolve(window, 'role=button name=Sav', { timeoutMs: 0 })).rejects.toMatchObject({
      code: 'SELECTOR_NO_MATCH',
      similarRefs: [expect.objectContaining({ name: 'Save' })],
    });
  });

  it('refuses several matches with AMBIGUOUS_TARGET naming each by ref; nth picks one, positionally', async () => {
    const window = new FakeWindow([ROOT, button(2, 'Save', 0), button(3, 'Save as', 60)]);
    const error = await resolve(window, 'name~=save').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AMBIGUOUS_TARGET', details: { count: 2 } });
    const picked = await resolve(window, 'name~=save', { nth: 1 });
    expect(picked.located.node.key).toBe(3);
    expect(picked.resolvedBy).toMatchObject({ strategy: 'NTH', confidence: 'SPATIAL' });
  });

  it('matches test ids through the transport, intersected with the snapshot by key', async () => {
    const window = new FakeWindow([ROOT, button(2, 'Save', 0), button(3, 'Save', 60)]);
    window.testIds.set('second', [3]);
    const found = await resolve(window, 'testId=second name=Save');
    expect(found.located.node.key).toBe(3);
    expect(found.resolvedBy.confidence).toBe('STABLE_ID');
  });
});
