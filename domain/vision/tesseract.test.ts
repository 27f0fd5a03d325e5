import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { runTesseract } from './tesseract.js';

const folder = mkdtempSync(join(tmpdir(), 'stagegraph-ocr-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in for the engine: an executable script, run as tesseract would be (no shell in between). */
function engine(name: string, script: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<StagegraphError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StagegraphError);
  return error as StagegraphError;
}

describe('runTesseract', () => {
  it('hands the image to the engine on stdin and returns its TSV', async () => {
    const echo = engine('echo', 'cat');
    const run = await runTesseract(Buffer.from('5\t1\t1\t1\t1\t1\t1\t2\t3\t4\t90\tHi\n'), {
      timeoutMs: 60_000,
      command: echo,
    });
    expect(run).toEqual({ tsv: '5\t1\t1\t1\t1\t1\t1\t2\t3\t4\t90\tHi\n', truncated: false });
  });

  it('says OCR_UNAVAILABLE when the engine is missing or fails, with its stderr', async () => {
    const missing = await failure(
      runTesseract(Buffer.alloc(0), { timeoutMs: 60_000, command: join(folder, 'absent') }),
    );
    expect(missing.code).toBe('OCR_UNAVAILABLE');
    const broken = engine('broken', "echo 'Failed loading language eng' >&2; exit 1");
    const failed = await failure(runTesseract(Buffer.alloc(0), { timeoutMs: 60_000, command: broken }));
    expect(failed.code).toBe('OCR_UNAVAILABLE');
    expect(failed.details).toEqual({ stderrTail: 'Failed loading language eng' });
  });

  it('stops an engine that outlives its bound: OCR_TIMEOUT', async () => {
    const stuck = engine('stuck', 'exec sleep 600');
    const error = await failure(runTesseract(Buffer.alloc(0), { timeoutMs: 200, command: stuck }));
    expect(error.code).toBe('OCR_TIMEOUT');
    expect(error.details).toEqual({ timeoutMs: 200 });
  });

  it('keeps whole lines up to the output bound and stops the engine there', async () => {
    const flood = engine('flood', "exec yes '5\t1\t1\t1\t1\t1\t1\t2\t3\t4\t90\tword'");
    const run = await runTesseract(Buffer.alloc(0), { timeoutMs: 60_000, command: flood, maxBytes: 1_000 });
    expect(run.truncated).toBe(true);
    expect(run.tsv.length).toBeLessThanOrEqual(1_000);
    expect(run.tsv.endsWith('word\n')).toBe(true);
  });
});
