import { realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * An agent may only hand the app files from the roots the server was started with. Paths are compared
 * after resolving symlinks, so neither `..` nor a link planted under a root can reach outside it.
 */
export async function confineUploadPaths(
  paths: readonly string[],
  allowedRoots: readonly string[],
): Promise<string[]> {
  const roots = await Promise.all(allowedRoots.map((root) => realpath(root).catch(() => root)));
  return Promise.all(
    paths.map(async (path) => {
      const real = await realpath(path).catch(() => {
        throw new StagegraphError('BAD_INPUT', `No file at ${JSON.stringify(path)}.`, {
          hint: 'Give the absolute path of an existing file under one of the allowed roots.',
          details: { allowedRoots: roots },
        });
      });
      if (!roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))) {
        throw new StagegraphError(
          'PATH_NOT_ALLOWED',
          `${JSON.stringify(path)} is outside the upload roots.`,
          {
            details: { path, allowedRoots: roots },
          },
        );
      }
      if (!(await stat(real)).isFile()) {
        throw new StagegraphError('BAD_INPUT', `${JSON.stringify(path)} is not a file.`, {
          details: { allowedRoots: roots },
        });
      }
      return real;
    }),
  );
}
