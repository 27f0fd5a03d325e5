import { mkdtempSync, symlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClickDocument, LaunchDocument, StopDocument } from './generated/graphql.js';
import { FIXTURE_APP_MAIN, fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { type GatewayClient, gatewayClient } from './helpers/gateway-client.js';

const TOKEN = 'artifact-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** A raw GET: fetch would resolve `..` before sending, and the server must see what an attacker sends. */
function rawGet(origin: string, path: string, headers: Record<string, string> = AUTH, method = 'GET') {
  const { hostname, port } = new URL(origin);
  return new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, type: response.headers['content-type'] }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('artifacts and the unified run log of a session', () => {
  const root = mkdtempSync(join(tmpdir(), 'stagegraph-artifacts-e2e-'));
  let gateway: RunningGateway;
  let origin: string;
  let session: string;
  let api: GatewayClient;
  const data = (query: string, variables?: Record<string, unknown>) => api.data(query, variables);
  const click = (testId: string) => api.data(ClickDocument, { target: { testId } });

  beforeAll(async () => {
    gateway = await startGateway({ token: TOKEN, artifactsDir: root, policyFile: UNATTENDED_POLICY });
    origin = new URL(gateway.url).origin;
    api = gatewayClient(gateway.url, AUTH);
    const { launch } = await api.data(LaunchDocument, { input: fixtureLaunch() });
    session = launch!.id;
    await click('stop-ticking');
    await click('log');
    await click('confirm');
    await api.data(StopDocument, { id: session });
  });
  afterAll(() => gateway?.stop());

  it("keeps one run log of app output, console, dialogs and Stagegraph's own actions, listed and served", async () => {
    const { session: read } = await data(
      `{ session(id: "${session}") { artifacts { omitted files { path size url } } } }`,
    );
    const runLog = read.artifacts.files.find((file: Loose) => file.path === 'run.jsonl');
    expect(runLog).toMatchObject({ url: `/artifacts/${session}/run.jsonl` });
    expect(runLog.size).toBeGreaterThan(0);
    expect(read.artifacts.omitted).toBe(0);

    const served = await fetch(`${origin}${runLog.url}`, { headers: AUTH });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await served.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['time', 'source', 'level', 'message']));
    }
    const has = (source: string, text: string) =>
      lines.some((line) => line.source === source && String(line.message).includes(text));
    expect(has('stagegraph', `session ${session} started by launch`)).toBe(true);
    // The launch transport reads the process's output from when the session exists (Playwright keeps the lines
    // it read while launching): here, what the stand-in writes as it stops.
    expect(lines.some((line) => line.source === 'stderr')).toBe(true);
    expect(has('console', 'renderer log: fixture: button clicked')).toBe(true);
    expect(has('dialog', 'confirm "Proceed?" dismissed')).toBe(true);
    expect(has('stagegraph', 'click on button "Log to console": ok')).toBe(true);
    expect(has('stagegraph', 'app exited')).toBe(true);
    const times = lines.map((line) => Date.parse(line.time));
    expect(times.every((time) => Number.isFinite(time))).toBe(true);
  });

  it("serves a live session's run log with the lines of the action just answered", async () => {
    const { launch } = await api.data(LaunchDocument, { input: fixtureLaunch() });
    const live = launch!.id;
    const clickIn = (testId: string) => api.data(ClickDocument, { session: live, target: { testId } });
    try {
      await clickIn('stop-ticking');
      for (let round = 1; round <= 3; round += 1) {
        await clickIn('log');
        // Straight to the route, no listing first: its batch of lines may not have been written yet.
        const served = await rawGet(origin, `/artifacts/${live}/run.jsonl`);
        expect(served.status).toBe(200);
        const clicks = served.body
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { source: string; message: string })
          .filter(
            (line) =>
              line.source === 'stagegraph' && line.message.includes('click on button "Log to console": ok'),
          );
        expect(clicks).toHaveLength(round);
      }
    } finally {
      await api.data(StopDocument, { id: live });
    }
  });

  it('serves artifacts read-only to authorised clients, and never outside a session folder', async () => {
    const path = `/artifacts/${session}/run.jsonl`;
    expect((await rawGet(origin, path, {})).status).toBe(401);
    expect((await rawGet(origin, path, AUTH, 'POST')).status).toBe(405);
    expect((await rawGet(origin, path, AUTH, 'HEAD')).status).toBe(200);
    for (const traversal of [
      `/artifacts/${session}/../../../../etc/passwd`,
      `/artifacts/${session}/%2e%2e/%2e%2e/etc/passwd`,
      `/artifacts/${session}/..%2f..%2fetc%2fpasswd`,
      '/artifacts/audit/log.jsonl',
      '/artifacts/../package.json',
    ]) {
      const answer = await rawGet(origin, traversal);
      expect(answer.status, traversal).toBe(400);
      expect(answer.body).not.toContain('root:');
    }
    symlinkSync('/etc/hostname', join(root, session, 'escape.txt'));
    expect((await rawGet(origin, `/artifacts/${session}/escape.txt`)).status).toBe(403);
    expect((await rawGet(origin, `/artifacts/${session}/missing.log`)).status).toBe(404);
  });

  it("records a launched command's output from its first line, in stdout.log, stderr.log and the run log", async () => {
    const { launchCommand } = await data(
      'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
      { input: { command: STAND_IN, args: [FIXTURE_APP_MAIN] } },
    );
    await api.data(StopDocument, { id: launchCommand.id });
    const { session: read } = await data(
      `{ session(id: "${launchCommand.id}") { artifacts { files { path url } } } }`,
    );
    const paths = read.artifacts.files.map((file: Loose) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['run.jsonl', 'stderr.log', 'stdout.log']));
    const stdout = await fetch(`${origin}/artifacts/${launchCommand.id}/stdout.log`, { headers: AUTH });
    expect(await stdout.text()).toContain('fixture main: ready');
    const runLog = await (
      await fetch(`${origin}/artifacts/${launchCommand.id}/run.jsonl`, { headers: AUTH })
    ).text();
    const lines = runLog
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({ source: 'stdout', message: 'fixture main: ready' }),
    );
    expect(lines[0]).toMatchObject({
      source: 'stagegraph',
      message: expect.stringContaining('started by launchCommand of'),
    });
  });
});
