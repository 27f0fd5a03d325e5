import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactFolder } from './artifact-folder.js';

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
});
