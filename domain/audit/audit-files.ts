import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Six digits sort correctly as text and outlast any realistic rotation count. */
const FILE_NAME = /^audit-(\d{6})\.jsonl$/;

export interface AuditFile {
  readonly number: number;
  readonly name: string;
  readonly path: string;
}

export function auditFile(dir: string, number: number): AuditFile {
  const name = `audit-${String(number).padStart(6, '0')}.jsonl`;
  return { number, name, path: join(dir, name) };
}

/** The log's files, oldest first; other files in the directory are ignored. */
export async function listAuditFiles(dir: string): Promise<AuditFile[]> {
  const names = await readdir(dir);
  return names
    .map((name) => FILE_NAME.exec(name))
    .filter((match) => match !== null)
    .map((match) => auditFile(dir, Number(match[1])))
    .sort((a, b) => a.number - b.number);
}

export async function fileSizeOf(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}
