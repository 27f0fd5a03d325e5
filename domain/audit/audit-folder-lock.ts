import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { OWNER_ONLY_FILE } from '../../transports/process/owner-only-modes.js';
import { procStat } from '../../transports/process/process-group.js';

/** The file in an audit folder that names the one gateway writing it. */
export const AUDIT_LOCK_NAME = 'audit.lock';

interface Holder {
  readonly pid: number;
  /** The holder's start time (/proc): a later process that reused the pid is not the holder. */
  readonly startTicks: string;
  readonly host: string;
}

/**
 * One audit folder, one writer: two gateways appending to one chain interleave their records and break it
 * (issue 33). A gateway claims the folder at start and gives it back at close; a claim left by a gateway
 * that has ended (killed, crashed) is taken over, one held by a live process is refused.
 */
export class AuditFolderLock {
  readonly #path: string;
  readonly #holder: Holder;

  private constructor(path: string, holder: Holder) {
    this.#path = path;
    this.#holder = holder;
  }

  static async claim(dir: string): Promise<AuditFolderLock> {
    const path = join(dir, AUDIT_LOCK_NAME);
    const me: Holder = {
      pid: process.pid,
      startTicks: procStat(process.pid)?.startTicks ?? '',
      host: hostname(),
    };
    // Written whole beside the lock, then linked into place: link fails when the lock exists, so a reader
    // never sees a half-written claim and two starting gateways cannot both win.
    const draft = `${path}.${process.pid}`;
    await writeFile(draft, `${JSON.stringify(me)}\n`, { mode: OWNER_ONLY_FILE });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        if (await linked(draft, path)) return new AuditFolderLock(path, me);
        const holder = await readHolder(path);
        if (holder && stillHolds(holder)) throw folderInUse(dir, holder);
        await unlink(path).catch(ignoreMissing);
      }
      throw folderInUse(dir, await readHolder(path));
    } finally {
      await unlink(draft).catch(ignoreMissing);
    }
  }

  /** Gives the folder back, unless another gateway has taken over a claim it judged stale. */
  async release(): Promise<void> {
    const holder = await readHolder(this.#path);
    if (holder?.pid === this.#holder.pid && holder.startTicks === this.#holder.startTicks)
      await unlink(this.#path).catch(ignoreMissing);
  }
}

async function linked(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<Holder | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.startTicks !== 'string') return null;
    return { pid: parsed.pid, startTicks: parsed.startTicks, host: String(parsed.host ?? '') };
  } catch {
    return null;
  }
}

/** A holder on another host cannot be checked from here: it is taken to be alive. */
function stillHolds(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  return procStat(holder.pid)?.startTicks === holder.startTicks;
}

function folderInUse(dir: string, holder: Holder | null): StagegraphError {
  const who = holder ? `the gateway of pid ${holder.pid} on ${holder.host}` : 'another gateway';
  return new StagegraphError('AUDIT_FOLDER_IN_USE', `The audit folder ${dir} is written by ${who}.`, {
    details: {
      dir,
      lock: join(dir, AUDIT_LOCK_NAME),
      ...(holder ? { pid: holder.pid, host: holder.host } : {}),
    },
  });
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
