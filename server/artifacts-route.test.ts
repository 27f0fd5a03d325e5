import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientIdentity } from '../domain/governance/clients/client-identity.js';
import { artifactsRoute } from './artifacts-route.js';

/**
 * The artifact route over a real folder: a symbolic link anywhere under the artifacts root — a session
 * folder that is one (`s99 -> /tmp/elsewhere`), a folder or a file inside a session — is refused with
 * ARTIFACT_SYMLINK, and its target is never served; the root itself may be a link.
 */

let scratch: string;
let server: Server;
let origin: string;

async function get(path: string, role = 'agent'): Promise<{ status: number; body: string }> {
  const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${role}` } });
  return { status: response.status, body: await response.text() };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-artifacts-route-'));
  const real = join(scratch, 'real-root');
  const elsewhere = join(scratch, 'elsewhere');
  mkdirSync(join(real, 's1', 'screenshots'), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'secret.txt'), 'SECRET-ELSEWHERE');
  writeFileSync(join(real, 's1', 'screenshots', 'w1-1.png'), 'png bytes');
  symlinkSync(elsewhere, join(real, 's99'));
  symlinkSync(elsewhere, join(real, 's1', 'linked'));
  symlinkSync(join(elsewhere, 'secret.txt'), join(real, 's1', 'secret.txt'));
  // The configured root may itself be a link (a user's choice of --artifacts-dir).
  const root = join(scratch, 'root-link');
  symlinkSync(real, root);
  writeFileSync(
    join(real, 's1', 'run.jsonl'),
    `${JSON.stringify({ source: 'stdout', message: 'GET /?session_token=RUNSECRET "quoted"' })}\nnot json token=LOOSESECRET\n`,
  );
  writeFileSync(join(real, 's1', 'stdout.log'), 'session_token=RAWSECRET\n');
  mkdirSync(join(real, 'host-a-s3', 'screenshots'), { recursive: true });
  writeFileSync(join(real, 'host-a-s3', 'screenshots', 'w1-1.png'), 'replica png');
  mkdirSync(join(real, 'audit'));
  writeFileSync(join(real, 'audit', 'audit.jsonl'), 'AUDIT');
  const route = artifactsRoute(
    root,
    (authorization) => ({ id: 'test', role: authorization?.slice('Bearer '.length) }) as ClientIdentity,
    () => Promise.resolve(),
    {
      readsClear: (client) => client.role === 'agent',
      redact: (text) => text.replace(/token=\S+/g, 'token=[redacted]'),
    },
  );
  server = createServer((request, response) => {
    if (!route(request, response)) response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the artifact route and symbolic links', () => {
  it('serves the files a session wrote, under a root that is itself a link', async () => {
    expect((await get('/artifacts/s1/run.jsonl')).body).toContain('RUNSECRET');
    expect((await get('/artifacts/s1/screenshots/w1-1.png')).body).toBe('png bytes');
    expect((await get('/artifacts/s1/missing.txt')).status).toBe(404);
    expect((await get('/artifacts/s1/run.jsonl/more')).status).toBe(404);
  });

  it("serves a cluster replica's session folder (<replica>-s<n>), never the audit folder beside it", async () => {
    expect((await get('/artifacts/host-a-s3/screenshots/w1-1.png')).body).toBe('replica png');
    expect((await get('/artifacts/audit/audit.jsonl')).status).toBe(400);
  });

  it('refuses a session folder that is a link, and any link inside one, with ARTIFACT_SYMLINK', async () => {
    for (const path of [
      '/artifacts/s99/secret.txt',
      '/artifacts/s1/linked/secret.txt',
      '/artifacts/s1/secret.txt',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).not.toContain('SECRET-ELSEWHERE');
      expect(JSON.parse(answer.body).errors[0].extensions, path).toMatchObject({
        code: 'ARTIFACT_SYMLINK',
        retryable: false,
      });
    }
  });
});

describe('files kept in clear', () => {
  it('are refused to a reader who does not read in clear with ARTIFACT_FORBIDDEN, and served to an agent', async () => {
    for (const path of ['/artifacts/s1/stdout.log', '/artifacts/s1/traces/trace-1.zip']) {
      const answer = await get(path, 'observer');
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body).errors[0].extensions, path).toMatchObject({
        code: 'ARTIFACT_FORBIDDEN',
        retryable: false,
        hint: expect.stringContaining('run.jsonl'),
      });
    }
    expect((await get('/artifacts/s1/stdout.log')).body).toBe('session_token=RAWSECRET\n');
    expect((await get('/artifacts/s1/screenshots/w1-1.png', 'observer')).body).toBe('png bytes');
  });

  it('give that reader the run log scrubbed, each line still a line of JSON where it was one', async () => {
    const { status, body } = await get('/artifacts/s1/run.jsonl', 'observer');
    expect(status).toBe(200);
    expect(body).not.toMatch(/RUNSECRET|LOOSESECRET/);
    const [first, second] = body.split('\n');
    expect(JSON.parse(first as string)).toEqual({
      source: 'stdout',
      message: 'GET /?session_token=[redacted] "quoted"',
    });
    expect(second).toBe('not json token=[redacted]');
  });
});
