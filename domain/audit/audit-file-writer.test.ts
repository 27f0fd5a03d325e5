import { mkdtempSync, rmSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AuditFileWriter } from './audit-file-writer.js';
import { auditFile } from './audit-files.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, open: vi.fn(real.open) };
});

const root = mkdtempSync(join(tmpdir(), 'stagegraph-audit-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('AuditFileWriter', () => {
  it('a sync while a failed append is letting go of the file fails for that append’s reason', async () => {
    const readOnly = Object.assign(new Error('EROFS: read-only file system, write'), { code: 'EROFS' });
    let closed!: () => void;
    const realOpen = vi.mocked(open).getMockImplementation()!;
    vi.mocked(open).mockImplementation(async (...args) => {
      const handle: FileHandle = await realOpen(...args);
      if (!String(args[0]).endsWith('.jsonl')) return handle;
      const close = handle.close;
      handle.write = () => Promise.reject(readOnly);
      // Letting go of the file takes a while, as on a filesystem that just failed.
      handle.close = () => new Promise<void>((resolve) => (closed = resolve)).then(close);
      return handle;
    });
    const writer = await AuditFileWriter.open(root, auditFile(root, 1));

    const failed = writer.write([Buffer.from('{"seq":1}\n')]);
    await vi.waitFor(() => expect(closed).toBeDefined());
    await expect(writer.sync()).rejects.toMatchObject({ code: 'EROFS' });
    closed();
    await expect(failed).rejects.toMatchObject({ linesWritten: 0, cause: { code: 'EROFS' } });
  });
});
