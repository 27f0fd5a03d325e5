import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import type { TokenGrant, TokenRole } from '../domain/governance/clients/client-identity.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { openToOthers, parseHashLine, tokenDigest } from './token-record.js';

/**
 * The largest token file read: thousands of hashed lines (72 bytes each) for rotation, and a file that is
 * something else (a log named by mistake) is refused before it is read into memory.
 */
export const MAX_TOKEN_FILE_BYTES = 256 * 1024;

const CREATE_HINT = 'stagegraph token create --role';

/**
 * The tokens of one `--token-file`, `--approver-token-file` or `--observer-token-file`, as digests only.
 * The file must be the user's alone (mode 0600 or stricter): a launched app runs as the same user, and
 * group or world read would hand it to every other account as well. Lines are `sha256:<hex>` (what
 * `stagegraph token create` writes); an agent file may also hold a clear token per line, hashed as it is
 * read. Approver and observer files take hashes only: a clear approver token in a file is one any process
 * of this user — an app under test among them — can read and approve with. Blank lines and `#` comments
 * are skipped.
 */
export function readTokenFile(path: string, role: TokenRole, flag: string): TokenGrant[] {
  const text = readPrivateFile(path, flag);
  const grants: TokenGrant[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const digest = parseHashLine(line);
    if (digest) grants.push({ digest, role });
    else if (role === 'agent' && !line.startsWith('sha256:'))
      grants.push({ digest: tokenDigest(line), role });
    else
      throw new StagegraphError(
        'BAD_INPUT',
        `${flag} ${path}: line ${index + 1} is not a sha256:<64 hex digits> hash${role === 'agent' ? '' : ` (a ${role} file holds hashes only, never a clear token)`}.`,
        {
          hint: `Create a token with \`${CREATE_HINT} ${role} --file ${path}\`: it prints the token once and stores only its hash.`,
        },
      );
  }
  if (grants.length === 0)
    throw new StagegraphError('BAD_INPUT', `${flag} ${path} holds no token.`, {
      hint: `Add one with \`${CREATE_HINT} ${role} --file ${path}\`.`,
    });
  return grants;
}

/** Reads a file after checking, on the open descriptor, that it is a regular file only its owner can read. */
function readPrivateFile(path: string, flag: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new StagegraphError('BAD_INPUT', `${flag} ${path} cannot be read: ${(error as Error).message}.`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new StagegraphError('BAD_INPUT', `${flag} ${path} is not a regular file.`);
    if (openToOthers(stat.mode))
      throw new StagegraphError(
        'BAD_INPUT',
        `${flag} ${path} is readable or writable by group or others (mode ${(stat.mode & 0o777).toString(8)}); a token file must be mode 600 or stricter.`,
        { hint: `Run \`chmod 600 ${path}\`, then start the gateway again.` },
      );
    if (stat.size > MAX_TOKEN_FILE_BYTES)
      throw new StagegraphError(
        'BAD_INPUT',
        `${flag} ${path} is ${stat.size} bytes; a token file holds at most ${MAX_TOKEN_FILE_BYTES}.`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
