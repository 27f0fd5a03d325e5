import { constants, lstatSync, mkdirSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER } from '../../transports/process/owner-only-modes.js';

/** A listing names at most this many files; a folder with more says how many it left out. */
export const MAX_LISTED_ARTIFACTS = 1_000;

export interface ArtifactFile {
  /** Relative to the session's folder, with `/` separators: `run.jsonl`, `screenshots/w1-1.png`. */
  readonly path: string;
  readonly size: number;
  readonly modified: Date;
}

/**
 * How every artifact file is opened for writing: a file that is a symbolic link is not followed (ELOOP), so
 * a link planted where the gateway will write cannot send the bytes elsewhere.
 */
export const WRITE_NO_FOLLOW =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
/** As WRITE_NO_FOLLOW, appending: the run log and a launched command's output. */
export const APPEND_NO_FOLLOW =
  constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW;

/**
 * Makes `folder` (recursively) and throws ARTIFACT_SYMLINK when it is a symbolic link: `mkdir` takes a link
 * to a folder for the folder, and anything written through it (a session folder planted as
 * `s9 -> /elsewhere` by a process running as this user) would land outside the artifacts folder.
 */
export function realFolder(folder: string): string {
  mkdirSync(folder, { recursive: true, mode: OWNER_ONLY_FOLDER });
  if (lstatSync(folder).isSymbolicLink())
    throw new StagegraphError(
      'ARTIFACT_SYMLINK',
      `${folder} is a symbolic link; the gateway writes no artifact through one.`,
      { details: { folder } },
    );
  return folder;
}

/**
 * A session's own folder for what it keeps on disk (the run log, a launched command's output, saved
 * screenshots). Names are made here, never taken from clients, so nothing a client sends can steer a write
 * outside the folder; and no write follows a symbolic link, in the folder's place or a file's.
 */
export class ArtifactFolder {
  readonly path: string;
  readonly #settled: () => Promise<void>;
  #next = 1;

  /** `settled`: awaited before a listing, so a file still being written (the run log's last batch) is listed whole. */
  constructor(root: string, sessionId: string, settled: () => Promise<void> = () => Promise.resolve()) {
    this.path = join(root, sessionId);
    this.#settled = settled;
  }

  /** Settles once every file being written (the run log's lines so far) holds what was appended to it. */
  settled(): Promise<void> {
    return this.#settled();
  }

  /** Writes `bytes` as `<kind>/<stem>-<n>.<extension>` and returns the absolute path. */
  async save(kind: string, stem: string, extension: string, bytes: Buffer): Promise<string> {
    realFolder(this.path);
    const folder = realFolder(join(this.path, kind));
    const path = join(folder, `${stem}-${this.#next}.${extension}`);
    this.#next += 1;
    await writeNoFollow(path, bytes);
    return path;
  }

  /**
   * Keeps what an approver was shown as `evidence/<sha256>.<extension>`: named by the hash the audit record
   * holds, so a reader finds the bytes from the record and can check them against it. Returns the path
   * relative to the folder.
   */
  async saveEvidence(sha256: string, extension: string, bytes: Buffer): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256 digest: ${sha256}`);
    realFolder(this.path);
    realFolder(join(this.path, 'evidence'));
    const relative = `evidence/${sha256}.${extension}`;
    await writeNoFollow(join(this.path, relative), bytes);
    return relative;
  }

  /** The files in the folder, sorted by path, at most MAX_LISTED_ARTIFACTS of them. */
  async list(): Promise<{ files: ArtifactFile[]; omitted: number }> {
    await this.settled();
    const files: ArtifactFile[] = [];
    let omitted = 0;
    const walk = async (folder: string, prefix: string): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const path = `${prefix}${entry.name}`;
        if (entry.isDirectory()) await walk(join(folder, entry.name), `${path}/`);
        else if (!entry.isFile()) continue;
        else if (files.length >= MAX_LISTED_ARTIFACTS) omitted += 1;
        else {
          const info = await stat(join(folder, entry.name)).catch(() => null);
          if (info) files.push({ path, size: info.size, modified: info.mtime });
        }
      }
    };
    await walk(this.path, '');
    return { files, omitted };
  }
}

async function writeNoFollow(path: string, bytes: Buffer): Promise<void> {
  const file = await open(path, WRITE_NO_FOLLOW, OWNER_ONLY_FILE);
  try {
    await file.writeFile(bytes);
  } finally {
    await file.close();
  }
}
