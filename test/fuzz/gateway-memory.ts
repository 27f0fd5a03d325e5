import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import CDP from 'chrome-remote-interface';

/**
 * The served gateway's memory as only what it still reaches, read through the inspector node opens for a
 * test (`--inspect=127.0.0.1:0`, see NODE_INSPECT): a forced full collection, then `process.memoryUsage()`.
 * Nothing in the gateway or its schema offers a collection, so no agent can ask for one; only a process
 * started by a test with node's own flag can be asked.
 */

/** Node's flag: an inspector on a loopback port of the kernel's choosing, printed to stderr. */
export const NODE_INSPECT = '--inspect=127.0.0.1:0';
/**
 * A collection leaves dead buffers to a background sweep, which a second one finishes (test/helpers/
 * reachable-heap.ts measured 26.1 MB of buffers after one, 9.0 MB after two).
 */
const COLLECTIONS = 2;
const MB = 1024 * 1024;

export interface MemoryAfterGc {
  /** Megabytes: the resident set, the V8 heap in use, and memory V8 is told of outside it (buffers among it). */
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** The inspector's WebSocket URL from a gateway's stderr, once node has printed it. */
export function inspectorUrl(stderr: string): string {
  const match = /Debugger listening on (ws:\/\/\S+)/.exec(stderr);
  if (!match) throw new Error(`the gateway was not started with ${NODE_INSPECT}: ${stderr.slice(0, 500)}`);
  return match[1]!;
}

/** Connects for one read and leaves, so the inspector holds nothing for a client between reads. */
async function withInspector<T>(url: string, use: (client: CDP.Client) => Promise<T>): Promise<T> {
  const client = await CDP({ target: url, local: true });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

export function memoryAfterGc(url: string): Promise<MemoryAfterGc> {
  return withInspector(url, async (client) => {
    for (let collection = 0; collection < COLLECTIONS; collection += 1)
      await client.HeapProfiler.collectGarbage();
    const { result } = await client.Runtime.evaluate({
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(String(result.value)) as NodeJS.MemoryUsage;
    return {
      rss: usage.rss / MB,
      heapUsed: usage.heapUsed / MB,
      external: usage.external / MB,
      arrayBuffers: usage.arrayBuffers / MB,
    };
  });
}

/** Writes a heap snapshot of the gateway (taken after a full collection) to `path`, for DevTools' Memory tab. */
export function writeHeapSnapshot(url: string, path: string): Promise<void> {
  return withInspector(url, async (client) => {
    const file = createWriteStream(path);
    client.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }: { chunk: string }) => file.write(chunk));
    await client.HeapProfiler.collectGarbage();
    await client.HeapProfiler.takeHeapSnapshot({ reportProgress: false });
    file.end();
    await finished(file);
  });
}
