import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyAudit } from '../../domain/audit/verify-audit.js';
import { faultsAvailable, mountFragileDisk, mountSmallDisk } from '../helpers/faulty-filesystem.js';
import { fixtureLaunch } from '../helpers/fixture-app.js';
import { type GatewayClient, gatewayClient, type Loose } from '../helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from '../helpers/gateway-process.js';
import { childrenOf, expectGroupsGone, isAlive, signalEach } from '../helpers/processes.js';
import { LAUNCH, UNATTENDED_POLICY } from './documents.js';

/**
 * Each performed `type` adds one character to the Shortcut field, which does not move as it fills (a click on
 * "Add task" would: the list above it grows, and a click of a burst lands where the button was): the page
 * counts what was done.
 */
const TYPE_ONE = 'mutation { type(target: { testId: "shortcut" }, text: "x") { windowId } }';
const SHORTCUT = '{ session { window { find(role: "textbox", name: "Shortcut") { value } } } }';
const RECORDS =
  '{ audit(first: 500, filter: { operations: ["type"] }) { edges { node { seq outcome prevHash hash } } } }';
const VERIFY =
  '{ verifyAudit { ok records lastSeq lastHash broken { file line seq reason } torn { file line bytes } } }';
/** Concurrent operations in a burst: enough that records are being written when the fault strikes. */
const BURST = 12;
/** A safety net for a gateway that does not stop on SIGTERM; it stops in seconds. */
const EXIT_SAFETY_NET_MS = 60_000;

interface Served {
  readonly gateway: GatewayProcess;
  readonly api: GatewayClient;
}

const cleanups: (() => Promise<void>)[] = [];
const launchedGroups = new Set<number>();

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  signalEach(
    [...launchedGroups].map((pgid) => -pgid),
    'SIGKILL',
  );
  await expectGroupsGone([...launchedGroups]);
  launchedGroups.clear();
});

/** The gateway as a user starts it, on `auditDir`; stopped (SIGTERM, then its exit) after the test. */
/**
 * Apps start without a PID namespace here: an isolated app's mount namespace holds a copy of every mount made
 * before it started, and where the host's mounts are private (this container's are) the unmount of the
 * audit folder's disk for its repair does not reach that copy, so the disk stays in use until the app ends.
 */
async function serve(auditDir: string): Promise<Served> {
  const gateway = await serveInChild([
    '--audit-dir',
    auditDir,
    '--policy',
    UNATTENDED_POLICY,
    '--app-isolation',
    'off',
  ]);
  cleanups.push(() => stop(gateway));
  return { gateway, api: gatewayClient(gateway.url) };
}

async function stop(gateway: GatewayProcess): Promise<void> {
  if (!isAlive(gateway.pid)) return;
  gateway.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    gateway.exited,
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        gateway.child.kill('SIGKILL');
        resolve();
      }, EXIT_SAFETY_NET_MS);
    }),
  ]);
  clearTimeout(timer);
}

/** Launches the fixture app and stops its ticking, so the page holds still. */
async function launchFixture({ gateway, api }: Served): Promise<void> {
  await api.data(LAUNCH, { input: fixtureLaunch() });
  for (const pgid of childrenOf(gateway.pid)) launchedGroups.add(pgid);
  await api.data('mutation { click(target: { testId: "stop-ticking" }) { windowId } }');
}

/** `OK`, or the code the `type` was answered with. */
async function typeOne(api: GatewayClient): Promise<string> {
  const answer = await api.send(TYPE_ONE);
  return answer.errors ? String(answer.errors[0]?.extensions?.code) : 'OK';
}

/** Characters in the Shortcut field: one per `type` the page was given. */
async function typed(api: GatewayClient): Promise<number> {
  return (await api.data(SHORTCUT)).session.window.find[0].value.length;
}

/** The `type` records the audit trail holds, in order. */
async function typeRecords(api: GatewayClient): Promise<Loose[]> {
  return (await api.data(RECORDS)).audit.edges.map((edge: Loose) => edge.node);
}

const counts = (answers: readonly string[]) =>
  Object.fromEntries(
    [...new Set(answers)].map((answer) => [answer, answers.filter((a) => a === answer).length]),
  );

describe.skipIf(!faultsAvailable())('the audit folder failing under a served gateway', () => {
  it('disk full mid-burst: operations in flight are recorded on the reserve, later ones are refused before they act, writes resume when there is room', async () => {
    const disk = await mountSmallDisk(2 * 1024 * 1024);
    cleanups.push(() => disk.unmount());
    const served = await serve(join(disk.dir, 'audit'));
    const { api, gateway } = served;
    await launchFixture(served);
    expect(await typeOne(api)).toBe('OK');

    await disk.fill();
    const burst = await Promise.all(Array.from({ length: BURST }, () => typeOne(api)));
    expect(
      Object.keys(counts(burst)).filter((code) => code !== 'OK' && code !== 'AUDIT_UNAVAILABLE'),
    ).toEqual([]);
    const refused = await api.failure(TYPE_ONE);
    expect(refused).toMatchObject({
      code: 'AUDIT_UNAVAILABLE',
      retryable: true,
      details: { errno: 'ENOSPC', dir: join(disk.dir, 'audit') },
    });
    expect(refused.hint).toContain('Free disk space');
    // Reads go on while writes cannot.
    expect((await api.data(VERIFY)).verifyAudit).toMatchObject({ ok: true, torn: [] });

    await disk.free();
    expect(await typeOne(api)).toBe('OK');
    const records = await typeRecords(api);
    expect(records.every((record) => record.outcome === 'OK')).toBe(true);
    // Nothing was done without its record, and nothing refused was done.
    expect(await typed(api)).toBe(records.length);
    expect(records.length).toBe(2 + burst.filter((answer) => answer === 'OK').length);
    const { verifyAudit: verified } = await api.data(VERIFY);
    expect(verified).toMatchObject({ ok: true, broken: null, torn: [] });
    expect(verified.records).toBe(verified.lastSeq);
    expect(gateway.stderr()).toMatch(/audit log: the disk of .* is full \(ENOSPC\)/);
    expect(gateway.stderr()).toMatch(/audit log: .* has room again/);
  });

  it('filesystem turned read-only mid-burst: operations answer done, unrecorded or refused, and after the repair every one done is in the chain', async () => {
    const disk = await mountFragileDisk(32);
    cleanups.push(() => disk.unmount());
    const auditDir = join(disk.dir, 'audit');
    const served = await serve(auditDir);
    const { api, gateway } = served;
    await launchFixture(served);
    expect(await typeOne(api)).toBe('OK');

    const pending = Array.from({ length: BURST }, () => typeOne(api));
    // The burst is under way (one answered, its record written) when the filesystem fails.
    await Promise.race(pending);
    await disk.breakIt();
    const burst = await Promise.all(pending);
    const allowed = ['OK', 'AUDIT_UNRECORDED', 'AUDIT_UNAVAILABLE'];
    expect(Object.keys(counts(burst)).filter((code) => !allowed.includes(code))).toEqual([]);
    const refused = await api.failure(TYPE_ONE);
    expect(refused).toMatchObject({
      code: 'AUDIT_UNAVAILABLE',
      retryable: true,
      details: { errno: 'EROFS' },
    });

    // The gateway holds nothing open on it now: the operator can unmount, check and mount it again.
    await disk.repair();
    expect(await typeOne(api)).toBe('OK');
    const records = await typeRecords(api);
    const done = burst.filter((answer) => answer === 'OK' || answer === 'AUDIT_UNRECORDED').length;
    expect(records.length).toBe(2 + done);
    expect(await typed(api)).toBe(records.length);
    expect(records.slice(1).every((record: Loose, index: number) => record.seq > records[index].seq)).toBe(
      true,
    );
    const { verifyAudit: verified } = await api.data(VERIFY);
    expect(verified).toMatchObject({ ok: true, broken: null, torn: [] });
    expect(verified.records).toBe(verified.lastSeq);
    expect(gateway.stderr()).toMatch(/cannot be written \(EROFS\)/);
    expect(gateway.stderr()).toMatch(/can be written again/);
  });
});

describe('kill -9 of the gateway mid-write', () => {
  it('restarts on the same folder: a torn last line is reported with its line and the chain goes on after it', async () => {
    const auditDir = await mkdtemp(join(tmpdir(), 'stagegraph-audit-kill-'));
    cleanups.push(() => rm(auditDir, { recursive: true, force: true }));
    const served = await serve(auditDir);
    await launchFixture(served);
    const pending = Array.from({ length: BURST }, () => typeOne(served.api).catch(() => 'GONE'));
    await Promise.race(pending);
    served.gateway.child.kill('SIGKILL');
    await served.gateway.exited;
    await Promise.all(pending);
    const left = await verifyAudit(auditDir);
    expect(left).toMatchObject({ ok: true, broken: null });

    // What a crash inside write(2) leaves: the first part of a record's line, without its newline. kill -9
    // leaves it only when it lands inside a write; when it did not, it is put there as the crash would.
    const file = join(auditDir, 'audit-000001.jsonl');
    const text = await readFile(file, 'utf8');
    const tornByKill = !text.endsWith('\n');
    const lastLine = text.trimEnd().split('\n').at(-1)!;
    const fragment = tornByKill ? lastLine : lastLine.slice(0, Math.floor(lastLine.length / 2));
    if (!tornByKill) await appendFile(file, fragment);
    const tornLine = text.split('\n').length;

    const again = await serve(auditDir);
    expect(again.gateway.stderr()).toContain(
      `audit log: line ${tornLine} of audit-000001.jsonl is a write torn by a crash (${fragment.length} bytes, not a record)`,
    );
    const tornAt = { file: 'audit-000001.jsonl', line: tornLine, bytes: fragment.length };
    expect((await again.api.data(VERIFY)).verifyAudit).toMatchObject({
      ok: true,
      records: left.records,
      broken: null,
      torn: [tornAt],
    });
    await again.api.failure('mutation { stop(id: "s404") { id } }');
    const { audit } = await again.api.data(
      '{ audit(first: 500) { edges { node { seq operation prevHash } } } }',
    );
    expect(audit.edges.at(-1).node).toEqual({
      seq: left.lastSeq + 1,
      operation: 'stop',
      prevHash: left.lastHash,
    });
    expect((await again.api.data(VERIFY)).verifyAudit).toMatchObject({
      ok: true,
      records: left.records + 1,
      torn: [tornAt],
    });

    // A line that is not a record where the chain does not go on after it is damage: a registered refusal.
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = lines[1]!.slice(0, 40);
    await writeFile(file, lines.join('\n'));
    const unreadable = await again.api.failure('{ audit(first: 500) { edges { node { seq } } } }');
    expect(unreadable).toMatchObject({
      code: 'AUDIT_BROKEN',
      details: { file: 'audit-000001.jsonl', line: 2 },
    });
    expect((await again.api.data(VERIFY)).verifyAudit).toMatchObject({
      ok: false,
      broken: { file: 'audit-000001.jsonl', line: 2, seq: null },
    });
  });
});
