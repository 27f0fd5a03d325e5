import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Real filesystem faults, for the audit tests: a small tmpfs that a padding file fills (ENOSPC), and an ext4
 * image whose kernel error handling turns it read-only under an open file (EROFS). Both need root with
 * CAP_SYS_ADMIN (mount, loop devices); `faultsAvailable` says whether this machine allows them.
 *
 * What denies root writes, measured on this machine: chmod does not; `mount -o remount,ro` of a tmpfs is
 * refused (EBUSY) while a file on it is open for writing; `chattr +i` stops opens and access(W_OK) but not
 * writes through a handle already open. Only the filesystem going read-only by itself (ext4 errors=remount-ro
 * on an error, which the kernel's trigger_fs_error raises) stops writes on an open handle, with EROFS.
 */

const run = promisify(execFile);
/** mount, umount and e2fsck of a few megabytes answer in well under a second; a loaded machine, in seconds. */
const COMMAND_TIMEOUT_MS = 60_000;
/** The padding is written in pieces this large, then in single pages, so the disk ends full to the last page. */
const PADDING_CHUNK_BYTES = 64 * 1024;
const PAGE_BYTES = 4096;
/** Written at the root of a repaired disk: the repair worked only when it can be. */
const REPAIR_PROBE = 'repair-probe';

let available: boolean | undefined;

/** Whether a tmpfs and a loop-mounted ext4 image can be mounted here (root, CAP_SYS_ADMIN, loop devices). */
export function faultsAvailable(): boolean {
  if (available !== undefined) return available;
  const dir = mkdtempSync(join(tmpdir(), 'stagegraph-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    execFileSync('which', ['mkfs.ext4', 'e2fsck', 'findmnt'], { stdio: 'ignore' });
    available = true;
  } catch {
    available = false;
  } finally {
    rmdirSync(dir);
  }
  return available;
}

async function command(
  file: string,
  args: readonly string[],
  okCodes: readonly number[] = [0],
): Promise<void> {
  try {
    await run(file, args, { timeout: COMMAND_TIMEOUT_MS });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number' && okCodes.includes(code)) return;
    throw error;
  }
}

/** A tmpfs of a given size, and a padding file that fills it to the last page. */
export interface SmallDisk {
  readonly dir: string;
  /** Writes padding until the disk answers ENOSPC, then gives back `leaveBytes` of it. */
  fill(leaveBytes?: number): Promise<void>;
  /** Removes the padding: the disk has room again. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

export async function mountSmallDisk(bytes: number): Promise<SmallDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'stagegraph-small-disk-'));
  await command('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  const padding = join(dir, 'padding');
  return {
    dir,
    async fill(leaveBytes = 0) {
      const handle = await open(padding, 'a');
      try {
        for (const size of [PADDING_CHUNK_BYTES, PAGE_BYTES, 1]) {
          const piece = Buffer.alloc(size, 0x2e);
          for (;;) {
            try {
              await handle.write(piece);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
        if (leaveBytes > 0) await handle.truncate((await handle.stat()).size - leaveBytes);
      } finally {
        await handle.close();
      }
    },
    async free() {
      await truncate(padding, 0);
    },
    async unmount() {
      await command('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An ext4 image mounted with errors=remount-ro, which the test can make fail and then repair. */
export interface FragileDisk {
  readonly dir: string;
  /**
   * Raises an ext4 error: the kernel turns it read-only at once (writes on open files fail EROFS, what was
   * not yet synced is lost), though access(W_OK) still passes: the mount is not marked read-only.
   */
  breakIt(): Promise<void>;
  /**
   * Unmounts it (nothing may hold a file open on it), checks and repairs it with e2fsck, and mounts it again
   * read-write: the operator's fix. Rejects when the filesystem mounted again is still the failed one.
   */
  repair(): Promise<void>;
  unmount(): Promise<void>;
}

export async function mountFragileDisk(megabytes: number): Promise<FragileDisk> {
  const home = await mkdtemp(join(tmpdir(), 'stagegraph-fragile-disk-'));
  const image = join(home, 'disk.img');
  const dir = join(home, 'mnt');
  await writeFile(image, '');
  await truncate(image, megabytes * 1024 * 1024);
  await command('mkfs.ext4', ['-q', '-F', image]);
  await mkdir(dir);
  // The disk is mounted on a read-only bind mount of its folder, made shared. Read-only: while the repair has
  // it unmounted, a writer trying again finds EROFS there, not an empty folder to write a new log into that
  // the mount then hides. Shared: any process may copy this machine's mounts into a mount namespace of its
  // own (an isolated app of a test running beside this one); a private copy would keep the failed filesystem
  // alive after the unmount, and the repair's mount would reuse its loop device and get that read-only
  // filesystem back. Under a shared mount the copy is a slave, and the unmount reaches it too.
  await command('mount', ['--bind', dir, dir]);
  await command('mount', ['-o', 'remount,bind,ro', dir]);
  await command('mount', ['--make-shared', dir]);
  const mount = () => command('mount', ['-o', 'loop,errors=remount-ro', image, dir]);
  await mount();
  let mounted = true;
  return {
    dir,
    async breakIt() {
      // Written but unsynced data goes with it, as when a disk fails under a running program.
      const { stdout } = await run('findmnt', ['-no', 'SOURCE', dir], { timeout: COMMAND_TIMEOUT_MS });
      await writeFile(
        `/sys/fs/ext4/${basename(stdout.trim())}/trigger_fs_error`,
        'stagegraph audit fault test',
      );
    },
    async repair() {
      await command('umount', [dir]);
      mounted = false;
      // 1: errors were corrected, which is what a forced read-only remount leaves behind.
      await command('e2fsck', ['-fy', image], [0, 1]);
      await mount();
      mounted = true;
      await writeFile(join(dir, REPAIR_PROBE), '').catch((error: unknown) => {
        throw new Error(
          `the repaired disk ${dir} is still the failed filesystem (${(error as NodeJS.ErrnoException).code}): a mount namespace that copied it privately still holds it`,
          { cause: error },
        );
      });
      await rm(join(dir, REPAIR_PROBE));
    },
    async unmount() {
      if (mounted) await command('umount', [dir]);
      mounted = false;
      await command('umount', [dir]);
      await rm(home, { recursive: true, force: true });
    },
  };
}
