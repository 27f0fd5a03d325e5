import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { RUN_LOG_FILE } from './run-log.js';

/**
 * How a file under a session's folder may be read over the artifact route:
 * - `shared`: screenshots and approval evidence — images of what every role already watches live (the
 *   observer page's frames, the approval card);
 * - `scrubbed`: the run log — app output, console and dialog text; a reader who does not read in clear
 *   gets each message scrubbed by the policy's patterns, as the audit trail's text is;
 * - `clear`: everything else — a Playwright trace zip (requests, bodies, typed values and DOM snapshots in
 *   clear, compressed: no pattern reaches inside), a launched command's stdout.log and stderr.log (raw
 *   bytes, kept byte for byte on purpose), and any file a future writer puts there. Such files are an
 *   agent's only. A list of what may be shared, not of what may not: a new kind of file starts closed.
 */
export type ArtifactAccess = 'shared' | 'scrubbed' | 'clear';

const SHARED_FOLDERS = new Set(['screenshots', 'evidence']);
const IMAGE = /\.(?:png|jpe?g)$/i;

/** `path`: the segments under the session folder, as the route decoded them. */
export function artifactAccess(path: readonly string[]): ArtifactAccess {
  if (path.length === 1 && path[0] === RUN_LOG_FILE) return 'scrubbed';
  if (path.length === 2 && SHARED_FOLDERS.has(path[0] as string) && IMAGE.test(path[1] as string))
    return 'shared';
  return 'clear';
}

/**
 * Whether a reader may open a file of this access: files kept in clear are for readers in clear only. The
 * artifact route refuses by it, and a listing shows by it, so no reader is listed a file it cannot open.
 */
export function mayOpenArtifact(access: ArtifactAccess, readsClear: boolean): boolean {
  return readsClear || access !== 'clear';
}

/**
 * A run-log line held back this long without a newline is scrubbed and passed on as it is: the run log
 * writes lines of at most 8 KiB of message (some 50 KiB JSON-escaped), so only a file it did not write
 * reaches this, and the held text stays bounded.
 */
export const MAX_SCRUBBED_LINE_BYTES = 1024 * 1024;

/**
 * Passes a run log through, each line's `message` scrubbed by `redact` (and a line that is not a run-log
 * object scrubbed whole): the JSON is parsed rather than the text scrubbed, so a placeholder never eats a
 * quote and leaves a line a reader cannot parse.
 */
export function scrubbedRunLog(redact: (text: string) => string): Transform {
  // A chunk may end inside a character: the decoder keeps its first bytes for the next one.
  const decoder = new StringDecoder('utf8');
  let held = '';
  const scrubLine = (line: string): string => {
    try {
      const entry = JSON.parse(line) as unknown;
      if (
        entry &&
        typeof entry === 'object' &&
        typeof (entry as { message?: unknown }).message === 'string'
      ) {
        const record = entry as { message: string };
        return JSON.stringify({ ...record, message: redact(record.message) });
      }
    } catch {
      // Not a run-log object: scrubbed as text below.
    }
    return redact(line);
  };
  return new Transform({
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, done) {
      held += decoder.write(chunk);
      const lines = held.split('\n');
      held = lines.pop() ?? '';
      let out = lines.map((line) => `${scrubLine(line)}\n`).join('');
      if (Buffer.byteLength(held) > MAX_SCRUBBED_LINE_BYTES) {
        out += redact(held);
        held = '';
      }
      done(null, out);
    },
    flush(done) {
      held += decoder.end();
      done(null, held === '' ? '' : scrubLine(held));
    },
  });
}
