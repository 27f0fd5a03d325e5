import { describe, expect, it } from 'vitest';
import { writingBoot } from '../../test/helpers/memory-streams.js';
import type { AuditCheckpoint } from '../audit/verify-audit.js';
import { type AuditCheckpointStore, AuditCheckpoints } from './audit-checkpoints.js';

/** A store whose writes wait until released, to see what is coalesced meanwhile. */
function slowStore() {
  const kept = new Map<string, AuditCheckpoint>();
  const writes: number[] = [];
  let release: () => void = () => {};
  const store: AuditCheckpointStore = {
    async raise({ replicaId }, checkpoint) {
      writes.push(checkpoint.seq);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      if ((kept.get(replicaId)?.seq ?? 0) < checkpoint.seq) kept.set(replicaId, checkpoint);
      return true;
    },
    read: async (replicaId) => kept.get(replicaId) ?? null,
  };
  return { store, writes, release: () => release() };
}

describe('AuditCheckpoints', () => {
  it('writes one checkpoint at a time, then the latest noted meanwhile, and reads after its writes', async () => {
    const { store, writes, release } = slowStore();
    const checkpoints = new AuditCheckpoints(store, writingBoot('b'), () => {});
    checkpoints.noteRecord({ seq: 1, hash: 'h1' });
    checkpoints.noteRecord({ seq: 2, hash: 'h2' });
    checkpoints.noteRecord({ seq: 3, hash: 'h3' });
    const read = checkpoints.current();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await read).toEqual({ seq: 3, hash: 'h3' });
    expect(writes).toEqual([1, 3]);
  });

  it('logs a failed write once, and the next record tries again', async () => {
    const lines: string[] = [];
    let failing = true;
    const kept: AuditCheckpoint[] = [];
    const store: AuditCheckpointStore = {
      async raise(_boot, checkpoint) {
        if (failing) throw new Error('Redis did not answer');
        kept.push(checkpoint);
        return true;
      },
      read: async () => kept.at(-1) ?? null,
    };
    const checkpoints = new AuditCheckpoints(store, writingBoot('b'), (line) => lines.push(line));
    checkpoints.noteRecord({ seq: 1, hash: 'h1' });
    await checkpoints.current();
    checkpoints.noteRecord({ seq: 2, hash: 'h2' });
    await checkpoints.current();
    failing = false;
    checkpoints.noteRecord({ seq: 3, hash: 'h3' });
    expect(await checkpoints.current()).toEqual({ seq: 3, hash: 'h3' });
    expect(lines).toEqual(['cluster: the audit checkpoint was not written: Redis did not answer']);
  });

  it('declares nothing once its replica is fenced; a write the store refused as fenced fences it', async () => {
    const kept: AuditCheckpoint[] = [];
    /** The store holds boot 2 of b: a later boot joined, or a reaper marked boot 1 DOWN, while it was paused. */
    const store: AuditCheckpointStore = {
      async raise({ epoch }, checkpoint) {
        if (epoch !== 2) return false;
        kept.push(checkpoint);
        return true;
      },
      read: async () => kept.at(-1) ?? null,
    };
    const boot = writingBoot('b', 1);
    const lines: string[] = [];
    const checkpoints = new AuditCheckpoints(store, boot, (line) => lines.push(line));
    checkpoints.noteRecord({ seq: 7, hash: 'h7' });
    expect(await checkpoints.current()).toBeNull();
    expect(boot).toMatchObject({ fenced: true, refused: 1 });
    kept.push({ seq: 3, hash: 'boot 2' });
    checkpoints.noteRecord({ seq: 8, hash: 'h8' });
    expect(await checkpoints.current()).toEqual({ seq: 3, hash: 'boot 2' });
    expect(boot.refused).toBe(1);
    expect(lines).toEqual([]);
  });
});
