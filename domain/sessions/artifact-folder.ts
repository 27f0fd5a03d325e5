import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A listing names at most this many files; a folder with more says how many it left out. */
export const MAX_LISTED_ARTIFACTS = 1_000;

export interface ArtifactFile {
  /** Relative to the session's folder, with `/` separators: `run.jsonl`, `screenshots/w1-1.png`. */
  readonly path: string;
  readonly size: number;
  readonly modified: Date;
}

/**
 * A session's own folder for what it keeps on disk (the run log, a launched command's output, saved
 * screenshots). Names are made here,
 * never taken from clients, so nothing a client sends can steer a write outside the folder.
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
    const folder = join(this.path, kind);
    await mkdir(folder, { recursive: true });
    const path = join(folder, `${stem}-${this.#next}.${extension}`);
    this.#next += 1;
    await writeFile(path, bytes);
    return path;
  }

  /**
   * Keeps what an approver was shown as `evidence/<sha256>.<extension>`: named by the hash the audit record
   * holds, so a reader finds the bytes from the record and can check them against it. Returns the path
   * relative to the folder.
   */
  async saveEvidence(sha256: string, extension: string, bytes: Buffer): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256 digest: ${sha256}`);
    const folder = join(this.path, 'evidence');
    await mkdir(folder, { recursive: true });
    const relative = `evidence/${sha256}.${extension}`;
    await writeFile(join(this.path, relative), bytes);
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
