import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from './helpers/fixture-session.js';
import { type GovernedRun, startGovernedRun } from './helpers/governed-gateway.js';

/** Planted so the files on disk can be searched for them: none may appear there in clear. */
const PASSWORD = 'Planted-Pa55word-3c81e0';
const MARKED_SECRET = 'marked-secret-5d2f77aa';

const RECORDS = `{ audit(first: 500) { edges { cursor node {
  seq operation kind client { id role } decision risk rule { id } outcome errorCode durationMs arguments
  session { id } target { role name inputType } approval { status decidedBy } evidence { kind sha256 } effect { added removed changed documentReplaced }
  prevHash hash } } pageInfo { hasNextPage endCursor } } }`;
const VERIFY = '{ verifyAudit { ok files records lastSeq lastHash broken { file line seq reason } } }';

let run: GovernedRun;
const records = async (target: GovernedRun = run): Promise<Loose[]> =>
  (await target.agent.data(RECORDS)).audit.edges.map((edge: Loose) => edge.node);

beforeAll(async () => {
  run = await startGovernedRun();
});
afterAll(async () => {
  await run?.stop();
  await run?.cleanup();
});

describe('the audit trail', () => {
  it('records every mutation in order with its client, decision, target and outcome', async () => {
    const live = run.approver.watch(
      'subscription { audit { record { seq operation outcome } droppedBefore } }',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await run.agent.data(
      `mutation { fill(target: { testId: "password" }, value: "${PASSWORD}") { windowId } }`,
    );
    await run.agent.data(
      `mutation { fill(target: { testId: "name" }, value: "${MARKED_SECRET}", secret: true) { windowId } }`,
    );
    await run.agent.data('mutation { click(target: { testId: "log" }) { windowId diff { from } } }');
    await run.agent.failure(
      'mutation { click(target: { testId: "log" }, position: { x: 1, y: 1 }) { windowId } }',
    );
    await run.agent.failure('mutation { click(target: { testId: "delete-account" }) { windowId } }');
    await run.agent.failure('mutation { click(target: { testId: "nowhere" }, timeoutMs: 200) { windowId } }');
    await run.approver.failure('mutation { approve(id: "no-such-request") { status } }');

    const all = await records();
    expect(all.map((record) => record.seq)).toEqual(all.map((_, index) => index + 1));
    expect(
      all.map((record) => [record.operation, record.decision, record.outcome, record.errorCode]),
    ).toEqual([
      ['launch', 'ALLOW', 'OK', null],
      ['click', 'ALLOW', 'OK', null],
      ['fill', 'ALLOW', 'OK', null],
      ['fill', 'ALLOW', 'OK', null],
      ['click', 'ALLOW', 'OK', null],
      ['click', 'DENY', 'DENIED', 'POLICY_DENIED'],
      ['click', 'ASK', 'FAILED', 'APPROVAL_UNAVAILABLE'],
      ['click', 'ALLOW', 'FAILED', 'SELECTOR_NO_MATCH'],
      ['approve', 'ALLOW', 'FAILED', 'APPROVAL_NOT_FOUND'],
    ]);
    const [, , password, , log, coordinate, asked, , approve] = all;
    expect(password).toMatchObject({
      client: { role: 'AGENT', id: expect.stringMatching(/^agent-[0-9a-f]{8}$/) },
      session: { id: run.sessionId },
      target: { role: 'textbox', name: 'Password', inputType: 'password' },
    });
    expect(JSON.parse(password.arguments)).toMatchObject({ value: '[REDACTED:secret]' });
    expect(password.effect).toBeNull();
    expect(log).toMatchObject({
      effect: { added: expect.any(Number), removed: expect.any(Number), documentReplaced: false },
      risk: 'MEDIUM',
      rule: { id: 'default:MEDIUM' },
      target: { name: 'Log to console' },
    });
    expect(coordinate).toMatchObject({ risk: 'CRITICAL', rule: { id: 'default:CRITICAL' } });
    expect(asked).toMatchObject({ risk: 'HIGH', target: { name: 'Delete account' } });
    expect(approve.client.role).toBe('APPROVER');
    expect(all.every((record) => record.durationMs >= 0)).toBe(true);
    expect(all.slice(1).every((record, index) => record.prevHash === all[index].hash)).toBe(true);

    const streamed = await live.waitFor((value) => value.audit.record.operation === 'approve');
    expect(streamed.audit.record.seq).toBe(approve.seq);
    live.dispose();
  });

  it('keeps typed secrets out of the files on disk and off the wire', async () => {
    const files = await readdir(run.auditDir);
    const onDisk = (await Promise.all(files.map((file) => readFile(join(run.auditDir, file), 'utf8')))).join(
      '\n',
    );
    expect(onDisk).toContain('"operation":"fill"');
    expect(onDisk).not.toContain(PASSWORD);
    expect(onDisk).not.toContain(MARKED_SECRET);
    expect(JSON.stringify(await records())).not.toContain(PASSWORD);
  });

  it('pages with first / after', async () => {
    const page = await run.agent.data(
      '{ audit(first: 2, after: "3") { edges { cursor } pageInfo { hasNextPage endCursor } } }',
    );
    expect(page.audit).toEqual({
      edges: [{ cursor: '4' }, { cursor: '5' }],
      pageInfo: { hasNextPage: true, endCursor: '5' },
    });
    const denied = await run.agent.data(
      '{ audit(filter: { outcomes: [DENIED] }) { edges { node { seq rule { id } } } } }',
    );
    expect(denied.audit.edges).toEqual([{ node: { seq: 6, rule: { id: 'default:CRITICAL' } } }]);
  });

  it('verifies, continues the chain across a restart, and names a tampered record', async () => {
    const first = (await run.agent.data(VERIFY)).verifyAudit;
    expect(first).toMatchObject({ ok: true, files: 1, broken: null });
    expect(first.records).toBe(first.lastSeq);
    const { auditDir } = run;
    await run.stop();

    run = await startGovernedRun({ auditDir }, { launch: false });
    await run.agent.failure('mutation { stop(id: "s404") { id } }');
    const after = await records();
    const resumed = after.at(-1);
    expect(resumed).toMatchObject({ seq: first.lastSeq + 1, prevHash: first.lastHash, operation: 'stop' });
    expect((await run.agent.data(VERIFY)).verifyAudit).toMatchObject({
      ok: true,
      records: first.lastSeq + 1,
    });

    const file = join(auditDir, (await readdir(auditDir)).find((name) => name.endsWith('.jsonl'))!);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[4] = lines[4]!.replace('"outcome":"ok"', '"outcome":"failed"');
    await writeFile(file, lines.join('\n'));
    const tampered = (await run.agent.data(VERIFY)).verifyAudit;
    expect(tampered).toMatchObject({ ok: false, records: 4, broken: { line: 5, seq: 5 } });
    expect(tampered.broken.reason).toMatch(/does not match its hash/);
  });
});
