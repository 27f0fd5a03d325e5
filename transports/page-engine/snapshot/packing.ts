/// <reference lib="dom" />
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { TransportError } from '../../contract/transport-error.js';

/*
 * A whole snapshot's wire text (encoding.ts) of a 5,000-row page is 2 MB, and Chromium hands a string back
 * from Runtime.evaluate at about 8 MB/s on the bench machine — ~250 ms, a sixth of the read, whatever the
 * characters and with or without the WebSocket's own compression. Rows repeat their cells' names, so the
 * text deflates about tenfold: compressed in the page (CompressionStream) and sent as base64, the same
 * read crosses in ~120 ms, compression included. Short texts cross as they are.
 */

/** Below this many characters a text crosses as it is: compressing would cost more than it saves. */
export const PACK_THRESHOLD_CHARS = 64 * 1024;
/** The most a packed text may inflate to: a zip bomb from a hostile page ends here, not in our heap. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

/** A text deflated (raw DEFLATE, RFC 1951) in the page, as base64. */
export interface PackedText {
  readonly deflated: string;
}

/**
 * In-page: `pack(text)` is the text itself when short, else a promise of it deflated. A self-contained
 * factory: its source is shipped into the page whole.
 */
export function createPacking(thresholdChars: number) {
  /** Characters per String.fromCharCode call: its arguments go on the stack. */
  const CHUNK = 0x8000;

  async function deflate(text: string): Promise<PackedText> {
    const stream = new CompressionStream('deflate-raw');
    const writer = stream.writable.getWriter();
    // A failed write errors the readable too, and so the read below: these two need no handler of their own.
    writer.write(new TextEncoder().encode(text)).catch(() => undefined);
    writer.close().catch(() => undefined);
    const bytes = new Uint8Array(await new Response(stream.readable).arrayBuffer());
    let binary = '';
    for (let at = 0; at < bytes.length; at += CHUNK)
      binary += String.fromCharCode.apply(null, bytes.subarray(at, at + CHUNK) as unknown as number[]);
    return { deflated: btoa(binary) };
  }

  function pack(text: string): string | Promise<PackedText> {
    if (text.length < thresholdChars || typeof CompressionStream !== 'function') return text;
    return deflate(text);
  }

  return { pack };
}

export type Packing = ReturnType<typeof createPacking>;

const inflateRawAsync = promisify(inflateRaw);

/** The text a page's `pack` answer stands for; PROTOCOL_ERROR when it is neither form, or inflates past the bound. */
export async function unpack(
  answer: unknown,
  method: string,
  maxBytes: number = MAX_UNPACKED_BYTES,
): Promise<string> {
  if (typeof answer === 'string') return answer;
  const deflated = (answer as Partial<PackedText> | null)?.deflated;
  if (typeof deflated !== 'string')
    throw new TransportError('protocol', `the page answered with neither text nor packed text`, { method });
  try {
    const bytes = await inflateRawAsync(Buffer.from(deflated, 'base64'), {
      maxOutputLength: maxBytes,
    });
    return bytes.toString('utf8');
  } catch (error) {
    throw new TransportError('protocol', `the page's packed text does not inflate: ${String(error)}`, {
      method,
    });
  }
}
