import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confineUploadPaths } from './upload-paths.js';

const base = mkdtempSync(join(tmpdir(), 'stagegraph-upload-'));
const root = join(base, 'root');
mkdirSync(root);
writeFileSync(join(root, 'ok.txt'), 'ok');
writeFileSync(join(base, 'secret.txt'), 'secret');
symlinkSync(join(base, 'secret.txt'), join(root, 'link.txt'));

describe('upload path confinement', () => {
  it('accepts files under a root', async () => {
    expect(await confineUploadPaths([join(root, 'ok.txt')], [root])).toEqual([join(root, 'ok.txt')]);
  });

  it.each([
    ['a file beside the root', join(base, 'secret.txt')],
    ['a .. escape', join(root, '..', 'secret.txt')],
    ['a symlink pointing out', join(root, 'link.txt')],
  ])('refuses %s with PATH_NOT_ALLOWED and the allowed roots', async (_case, path) => {
    await expect(confineUploadPaths([path], [root])).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
      details: { allowedRoots: [root] },
    });
  });

  it('refuses a missing file and a folder as BAD_INPUT', async () => {
    await expect(confineUploadPaths([join(root, 'nope.txt')], [root])).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(confineUploadPaths([root], [root])).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
