import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { megabytes, reachableUsage } from './reachable-heap.js';

/** The parts of V8's .heapsnapshot format read here: nodes as flat rows of `node_fields`. */
interface HeapSnapshotFile {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

/** Kinds whose V8 name is their content (a string's text, a number's value): counted together. */
const CONTENT_NAMED = new Set(['string', 'concatenated string', 'sliced string', 'number', 'bigint']);
const KINDS_SHOWN = 15;

/** Visits each object of a snapshot file: its id (stable across one process's snapshots), kind and size. */
function forEachObject(path: string, visit: (id: number, kind: string, bytes: number) => void): void {
  const file = JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshotFile;
  const fields = file.snapshot.meta.node_fields;
  const [typeNames] = file.snapshot.meta.node_types;
  const [type, name, id, size] = ['type', 'name', 'id', 'self_size'].map((field) =>
    fields.indexOf(field),
  ) as [number, number, number, number];
  const { nodes, strings } = file;
  for (let row = 0; row < nodes.length; row += fields.length) {
    const typeName = typeNames[nodes[row + type] as number] ?? 'unknown';
    const kind = CONTENT_NAMED.has(typeName)
      ? typeName
      : `${typeName} ${(strings[nodes[row + name] as number] ?? '').slice(0, 60)}`;
    visit(nodes[row + id] as number, kind, nodes[row + size] as number);
  }
}

/**
 * A heap snapshot taken now, to explain a memory bound that fails later: which kinds of object were
 * allocated since and are still reachable. Writing it takes a few seconds and a file the size of the heap
 * (removed by `discard`); reading it back happens only when a bound fails.
 */
export async function heapBaseline() {
  const path = writeHeapSnapshot(join(tmpdir(), `heap-baseline-${process.pid}-${Date.now()}.heapsnapshot`));
  const usageBefore = reachableUsage();
  // Writing it stops this process for as long as a loaded machine makes it (over a minute at load 10). The
  // timers it made overdue fire first, so that a keep-alive connection the server closes for idleness is
  // closed before a test sends on it (which would meet a reset). One whose idle time runs out just after
  // the pause can still meet the next request: a caller whose read may follow retries it on a reset.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
  const explain = (): string => {
    // Taken before anything here allocates, so only what the test grew shows.
    const nowPath = writeHeapSnapshot(join(tmpdir(), `heap-now-${process.pid}-${Date.now()}.heapsnapshot`));
    const usageNow = reachableUsage();
    const grewBy = (part: 'heapUsed' | 'arrayBuffers' | 'external') =>
      `${part} ${megabytes(usageNow[part] - usageBefore[part])} MB`;
    const before = new Set<number>();
    forEachObject(path, (id) => before.add(id));
    const grown = new Map<string, { count: number; bytes: number }>();
    try {
      forEachObject(nowPath, (id, kind, bytes) => {
        if (before.has(id)) return;
        const tally = grown.get(kind) ?? { count: 0, bytes: 0 };
        tally.count += 1;
        tally.bytes += bytes;
        grown.set(kind, tally);
      });
    } finally {
      rmSync(nowPath, { force: true });
    }
    const total = [...grown.values()].reduce((sum, { bytes }) => sum + bytes, 0);
    const largest = [...grown].sort(([, a], [, b]) => b.bytes - a.bytes).slice(0, KINDS_SHOWN);
    return [
      `Since the baseline: ${grewBy('heapUsed')}, ${grewBy('arrayBuffers')} (buffers outside the heap), ${grewBy('external')} (all memory V8 is told of outside the heap, buffers included).`,
      `${megabytes(total)} MB in objects allocated since the baseline and still reachable; the largest kinds:`,
      ...largest.map(([kind, { count, bytes }]) => `  ${megabytes(bytes)} MB in ${count} × ${kind}`),
    ].join('\n');
  };
  return {
    /** Fails with what grew when `growth` reaches `limit`. */
    expectWithin(growth: number, limit: number, what: string): void {
      if (growth < limit) return;
      throw new Error(
        `${what}: retained growth ${megabytes(growth)} MB, past the ${megabytes(limit)} MB bound.\n${explain()}`,
      );
    },
    discard: () => rmSync(path, { force: true }),
  };
}
