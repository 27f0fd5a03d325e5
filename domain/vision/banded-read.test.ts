import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { readScreenshot } from './banded-read.js';

const folder = mkdtempSync(join(tmpdir(), 'stagegraph-bands-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A stand-in engine that reads the PGM header on stdin and answers one line of two words at y = 5 in its
 * own band: "h<band height>" and "w<width>".
 */
const engine = join(folder, 'engine');
writeFileSync(
  engine,
  `#!/bin/sh
set -- $(head -c 32 | sed -n 2p)
printf '5\\t1\\t1\\t1\\t1\\t1\\t2\\t5\\t10\\t8\\t90\\th%s\\n5\\t1\\t1\\t1\\t1\\t2\\t14\\t5\\t10\\t8\\t70\\tw%s\\n' "$2" "$1"
`,
);
chmodSync(engine, 0o755);

/** 30 px wide, ink on every row but 190–209. */
function screenshot(): Buffer {
  const png = new PNG({ width: 30, height: 400 });
  for (let y = 0; y < 400; y += 1)
    for (let x = 0; x < 30; x += 1) {
      const v = (y < 190 || y >= 210) && x % 2 === 0 ? 0 : 255;
      png.data.set([v, v, v, 255], (y * 30 + x) * 4);
    }
  return PNG.sync.write(png);
}

describe('readScreenshot', () => {
  it("reads each band with its own engine and puts the words back in the screenshot's rows and reading order", async () => {
    const read = await readScreenshot(screenshot(), { timeoutMs: 60_000, command: engine, bands: 2 });
    expect(read.truncated).toBe(false);
    expect(read.words.map((w) => [w.text, w.bbox.y, w.line])).toEqual([
      ['h200', 5, 0],
      ['w30', 5, 0],
      ['h200', 205, 1],
      ['w30', 205, 1],
    ]);
    expect(read.lines.map((l) => [l.text, l.bbox, l.confidence])).toEqual([
      ['h200 w30', { x: 2, y: 5, width: 22, height: 8 }, 80],
      ['h200 w30', { x: 2, y: 205, width: 22, height: 8 }, 80],
    ]);
    expect(read.lines[1]!.words).toEqual(read.words.slice(2));
  });

  it('hands one core the PNG itself, undecoded', async () => {
    const magic = join(folder, 'magic');
    writeFileSync(
      magic,
      `#!/bin/sh\nprintf '5\\t1\\t1\\t1\\t1\\t1\\t0\\t0\\t9\\t9\\t90\\t%s\\n' "$(head -c 4 | tail -c 3)"\n`,
    );
    chmodSync(magic, 0o755);
    const read = await readScreenshot(screenshot(), { timeoutMs: 60_000, command: magic, bands: 1 });
    expect(read.words.map((w) => w.text)).toEqual(['PNG']);
  });
});
