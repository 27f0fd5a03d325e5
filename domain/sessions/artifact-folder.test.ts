import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactFolder, realFolder } from './artifact-folder.js';
import { RunLog } from './run-log.js';

describe('artifact folder', () => {
  it('writes numbered files under <root>/<session>/<kind>/', async () => {
    const root = mkdtempSync(join(tmpdir(), 'stagegraph-artifacts-'));
    const folder = new ArtifactFolder(root, 's7');
    const first = await folder.save('screenshots', 'w1', 'png', Buffer.from('one'));
    const second = await folder.save('screenshots', 'w1', 'png', Buffer.from('two'));
    expect(first).toBe(join(root, 's7', 'screenshots', 'w1-1.png'));
    expect(second).toBe(join(root, 's7', 'screenshots', 'w1-2.png'));
    expect(readFileSync(second, 'utf8')).toBe('two');
  });

  it('writes nothing through a session folder, a kind folder or a file that is a symbolic link', async () => {
    const root = mkdtempSync(join(tmpdir(), 'stagegraph-artifacts-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'stagegraph-elsewhere-'));
    symlinkSync(elsewhere, join(root, 's99'));
    const linked = new ArtifactFolder(root, 's99');
    await expect(linked.save('screenshots', 'w1', 'png', Buffer.from('x'))).rejects.toMatchObject({
      code: 'ARTIFACT_SYMLINK',
    });
    await expect(linked.saveEvidence('a'.repeat(64), 'png', Buffer.from('x'))).rejects.toMatchObject({
      code: 'ARTIFACT_SYMLINK',
    });
    expect(() => realFolder(join(root, 's99'))).toThrow(/symbolic link/);
    const log = new RunLog(linked.path);
    log.stagegraph('session started');
    await log.written();
    await log.close();

    mkdirSync(join(root, 's98'));
    symlinkSync(elsewhere, join(root, 's98', 'screenshots'));
    await expect(
      new ArtifactFolder(root, 's98').save('screenshots', 'w1', 'png', Buffer.from('x')),
    ).rejects.toMatchObject({
      code: 'ARTIFACT_SYMLINK',
    });
    mkdirSync(join(root, 's97', 'evidence'), { recursive: true });
    symlinkSync(join(elsewhere, 'planted.png'), join(root, 's97', 'evidence', `${'b'.repeat(64)}.png`));
    await expect(
      new ArtifactFolder(root, 's97').saveEvidence('b'.repeat(64), 'png', Buffer.from('x')),
    ).rejects.toMatchObject({
      code: 'ELOOP',
    });
    symlinkSync(join(elsewhere, 'run.jsonl'), join(root, 's97', 'run.jsonl'));
    const planted = new RunLog(join(root, 's97'));
    planted.stagegraph('session started');
    await planted.written();
    await planted.close();

    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
