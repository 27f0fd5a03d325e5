import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { procStat } from '../../transports/process/process-group.js';
import { AUDIT_LOCK_NAME, AuditFolderLock } from './audit-folder-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-audit-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(claim: Promise<unknown>): Promise<StagegraphError> {
  const error = await claim.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StagegraphError);
  return error as StagegraphError;
}

describe('AuditFolderLock', () => {
  it('lets one writer claim a folder, refuses a second while it holds it, and frees it on release', async () => {
    const first = await AuditFolderLock.claim(dir);
    const refused = await refusal(AuditFolderLock.claim(dir));
    expect(refused.code).toBe('AUDIT_FOLDER_IN_USE');
    expect(refused.details).toMatchObject({ pid: process.pid, lock: join(dir, AUDIT_LOCK_NAME) });
    await first.release();
    const second = await AuditFolderLock.claim(dir);
    await second.release();
  });

  it('takes over the claim of a gateway that has ended, and of a later process that reused its pid', async () => {
    const ended = spawnSync('true').pid as number;
    await writeFile(
      join(dir, AUDIT_LOCK_NAME),
      JSON.stringify({ pid: ended, startTicks: '1', host: hostname() }),
    );
    const taken = await AuditFolderLock.claim(dir);
    await taken.release();
    // This very process, but started at another time: the pid was reused, the holder is gone.
    await writeFile(
      join(dir, AUDIT_LOCK_NAME),
      JSON.stringify({
        pid: process.pid,
        startTicks: `${procStat(process.pid)?.startTicks}0`,
        host: hostname(),
      }),
    );
    const again = await AuditFolderLock.claim(dir);
    expect(JSON.parse(await readFile(join(dir, AUDIT_LOCK_NAME), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    await again.release();
  });

  it('takes a claim of another host to be alive, and does not remove a claim it does not hold', async () => {
    const foreign = JSON.stringify({ pid: 1, startTicks: '1', host: `${hostname()}-elsewhere` });
    await writeFile(join(dir, AUDIT_LOCK_NAME), foreign);
    expect((await refusal(AuditFolderLock.claim(dir))).message).toContain('elsewhere');
    expect(await readFile(join(dir, AUDIT_LOCK_NAME), 'utf8')).toBe(foreign);
  });
});
