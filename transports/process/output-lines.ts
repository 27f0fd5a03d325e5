import type { Readable } from 'node:stream';

/** A line longer than this is cut where it is reported line by line (raw files keep every byte). */
export const MAX_LINE_CHARS = 4_096;

/** Calls `onLine` with each line a process writes to `stream`, the last one even without its newline. */
export function readLines(stream: Readable, onLine: (text: string) => void): void {
  let partial = '';
  const emit = (raw: string) => onLine(raw.replace(/\r$/, '').slice(0, MAX_LINE_CHARS));
  stream.on('data', (chunk: Buffer | string) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) emit(line);
  });
  stream.once('end', () => {
    if (partial) emit(partial);
    partial = '';
  });
}
