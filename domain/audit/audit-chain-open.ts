import { mkdir } from 'node:fs/promises';
import { OWNER_ONLY_FOLDER } from '../../transports/process/owner-only-modes.js';
import { AuditFileWriter, openRefusal } from './audit-file-writer.js';
import { AuditFolderLock } from './audit-folder-lock.js';
import { type ResumedChain, resumeChain } from './audit-resume.js';

/** A log's folder, claimed, with its chain resumed and its newest file open for appending. */
export type OpenedLog = Omit<ResumedChain, 'newest'> & { writer: AuditFileWriter; lock: AuditFolderLock };

/**
 * Claims `dir` (creating it) and continues its chain; AUDIT_BROKEN when its last record is corrupt,
 * AUDIT_FOLDER_IN_USE when another process holds it, AUDIT_UNAVAILABLE where the folder cannot take the lock,
 * the reserve or the file. Bytes after the last newline (a crash mid-write) are never cut: they are ended with
 * a newline, and the next record starts on the line after them.
 */
export async function openChain(dir: string): Promise<OpenedLog> {
  try {
    await mkdir(dir, { recursive: true, mode: OWNER_ONLY_FOLDER });
    const lock = await AuditFolderLock.claim(dir);
    try {
      const { newest, seq, lastHash, recovered } = await resumeChain(dir);
      const writer = await AuditFileWriter.open(dir, newest);
      if (recovered) await writer.write([Buffer.from('\n')]);
      return { writer, seq, lastHash, recovered, lock };
    } catch (error) {
      await lock.release();
      throw error;
    }
  } catch (error) {
    throw openRefusal(dir, error);
  }
}
