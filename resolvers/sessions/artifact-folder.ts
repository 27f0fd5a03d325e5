import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A session's own folder for what it keeps on disk (saved screenshots, later logs). Names are made here,
 * never taken from clients, so nothing a client sends can steer a write outside the folder.
 */
export class ArtifactFolder {
  readonly path: string;
  #next = 1;

  constructor(root: string, sessionId: string) {
    this.path = join(root, sessionId);
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
}
