import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_APP_MAIN, fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type GatewayClient, gatewayClient, type Loose } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/**
 * The artifact route on a served gateway with agent, approver and observer tokens. Two sessions write
 * what holds secrets in clear: a launched command that prints a session token and a bearer header (its
 * stdout.log, stderr.log, and the run log's lines of them), and a traced session whose trace zip records a
 * secret typed into a field. The observer page's listing (the observer's own `artifacts` query) names,
 * for an observer's or an approver's token, only files it may open, and none holds a secret: the files
 * kept in clear are not listed and refused by URL with ARTIFACT_FORBIDDEN, the run log comes scrubbed.
 * The agent still reads them in clear.
 * On disk, every folder and file the gateway made (the audit trail's too) is its own user's only.
 */

const AGENT = 'agent-artifacts-51c0de';
const APPROVER = 'approver-artifacts-7e11a9';
const OBSERVER = 'observer-artifacts-3b9f42';
const TRACE_PLUGIN = fileURLToPath(new URL('../plugins/trace/index.ts', import.meta.url));
const PRINTED = ['STDOUTSECRET', 'STDERRSECRET'];
const TYPED = 'TYPEDSECRET';
/** The observer page's own listing (web/observer/artifacts/artifacts-panel.tsx). */
const LISTING = `query ($id: ID!) { session(id: $id) { id artifacts { omitted files { path size modified url } } } }`;

const playwright = createRequire(import.meta.url)('playwright-core/lib/coreBundle') as {
  utils: {
    ZipFile: new (
      path: string,
    ) => { entries(): Promise<string[]>; read(name: string): Promise<Buffer>; close(): void };
  };
};

let scratch: string;
let gateway: GatewayProcess;
let agent: GatewayClient;
const sessions: string[] = [];
let tracePath = '';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-artifact-secrets-'));
  // A command that prints credentials before it becomes the app: its output is recorded byte for byte.
  const printing = join(scratch, 'printing-app.sh');
  writeFileSync(
    printing,
    `#!/bin/sh\necho "connecting with session_token=${PRINTED[0]}"\necho "Authorization: Bearer ${PRINTED[1]}-0123456789" >&2\nexec "${STAND_IN}" "$@"\n`,
  );
  chmodSync(printing, 0o755);
  gateway = await serveInChild([
    '--token',
    AGENT,
    '--approver-token',
    APPROVER,
    '--observer-token',
    OBSERVER,
    '--artifacts',
    join(scratch, 'artifacts'),
    '--plugin',
    TRACE_PLUGIN,
    '--policy',
    UNATTENDED_POLICY,
  ]);
  agent = gatewayClient(gateway.url, bearer(AGENT));
  const { launchCommand } = await agent.data(
    'mutation ($input: LaunchCommandInput!) { launchCommand(input: $input) { id } }',
    { input: { command: printing, args: [FIXTURE_APP_MAIN] } },
  );
  sessions.push(launchCommand.id);
  const { launch } = await agent.data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
    input: fixtureLaunch(),
  });
  sessions.push(launch.id);
  await agent.data(`mutation { startTrace(session: "${launch.id}", snapshots: true) { id } }`);
  await agent.data(
    `mutation { fill(session: "${launch.id}", target: { testId: "name" }, value: "${TYPED}", secret: true) { target { name } } }`,
  );
  const { stopTrace } = await agent.data(`mutation { stopTrace(session: "${launch.id}") { path } }`);
  tracePath = join(scratch, 'artifacts', launch.id, stopTrace.path);
}, 300_000);

afterAll(async () => {
  for (const id of sessions) await agent?.send(`mutation { stop(id: "${id}") { id } }`);
  gateway?.child.kill('SIGTERM');
  await gateway?.exited;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function listed(token: string): Promise<{ path: string; url: string }[]> {
  const client = gatewayClient(gateway.url, bearer(token));
  const files: { path: string; url: string }[] = [];
  for (const id of sessions) files.push(...(await client.data(LISTING, { id })).session.artifacts.files);
  return files;
}

async function fetched(url: string, token: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(new URL(url, gateway.url), { headers: bearer(token) });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The trace zip's entries, uncompressed: the bytes of a zip do not show what its deflated entries hold. */
async function traceText(): Promise<string> {
  const zip = new playwright.utils.ZipFile(tracePath);
  try {
    const names = await zip.entries();
    return (await Promise.all(names.map(async (name) => (await zip.read(name)).toString('latin1')))).join(
      '\n',
    );
  } finally {
    zip.close();
  }
}

describe('the artifact route and secrets kept in clear', () => {
  it('holds the secrets in clear in the files it keeps that way (what the agent reads)', async () => {
    const files = await listed(AGENT);
    const paths = files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['stdout.log', 'stderr.log', 'run.jsonl']));
    expect(paths.some((path) => /^traces\/trace-\d+\.zip$/.test(path))).toBe(true);
    const stdout = files.find((file) => file.path === 'stdout.log') as { url: string };
    expect((await fetched(stdout.url, AGENT)).body.toString()).toContain(PRINTED[0]);
    expect(await traceText()).toContain(TYPED);
  });

  it('lists an observer or an approver only what it may open, and refuses the rest by URL', async () => {
    const agentUrls = (await listed(AGENT)).map((file) => file.url);
    for (const token of [OBSERVER, APPROVER]) {
      const files = await listed(token);
      // The observer page shows this listing: every link it shows opens, none holds a secret.
      expect(files.map((file) => file.path)).toEqual(['run.jsonl', 'run.jsonl']);
      for (const file of files) {
        const { status, body } = await fetched(file.url, token);
        expect(status, file.path).toBe(200);
        for (const secret of [...PRINTED, TYPED])
          expect(body.toString('latin1'), `${file.path} holds ${secret}`).not.toContain(secret);
      }
      const withheld = agentUrls.filter((url) => !files.some((file) => file.url === url));
      expect(withheld).toHaveLength(3);
      for (const url of withheld) {
        const { status, body } = await fetched(url, token);
        expect(status, url).toBe(403);
        expect(JSON.parse(body.toString()).errors[0].extensions).toMatchObject({
          code: 'ARTIFACT_FORBIDDEN',
          retryable: false,
          hint: expect.stringContaining('run.jsonl'),
        });
      }
    }
  });

  it('serves the run log to an observer scrubbed, its lines still JSON, the printed lines still there', async () => {
    const { status, body } = await fetched(`/artifacts/${sessions[0]}/run.jsonl`, OBSERVER);
    expect(status).toBe(200);
    const lines = body
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Loose);
    expect(lines).toContainEqual(
      expect.objectContaining({ source: 'stdout', message: 'connecting with [REDACTED:credential]' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ source: 'stderr', message: 'Authorization: [REDACTED:bearer]' }),
    );
  });

  it("keeps every folder and file it wrote (artifacts and the audit trail) its own user's only: 0700 and 0600", async () => {
    await agent.data(`mutation { stop(id: "${sessions[0]}") { id } }`);
    const root = join(scratch, 'artifacts');
    const entries = readdirSync(root, { recursive: true, withFileTypes: true });
    const written = entries.map((entry) => join(entry.parentPath, entry.name));
    expect(written).toEqual(
      expect.arrayContaining([
        join(root, sessions[0] as string, 'stdout.log'),
        join(root, sessions[0] as string, 'run.jsonl'),
        join(root, 'audit'),
      ]),
    );
    expect(written.some((path) => path.endsWith('.zip'))).toBe(true);
    expect(written.some((path) => path.startsWith(join(root, 'audit', '')) && statSync(path).isFile())).toBe(
      true,
    );
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect(mode(root)).toBe('700');
    for (const path of written) expect(mode(path), path).toBe(statSync(path).isDirectory() ? '700' : '600');
  });
});
