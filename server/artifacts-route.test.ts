import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientIdentity } from '../domain/governance/client-identity.js';
import { artifactsRoute } from './artifacts-route.js';

/**
 * The artifact route over a real folder: a symbolic link anywhere under the artifacts root — a session
 * folder that is one (`s99 -> /tmp/elsewhere`), a folder or a file inside a session — is refused with
 * ARTIFACT_SYMLINK, and its target is never served; the root itself may be a link.
 */

let scratch: string;
let server: Server;
let origin: string;

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${origin}${path}`);
  return { status: response.status, body: await response.text() };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-artifacts-route-'));
  const real = join(scratch, 'real-root');
  const elsewhere = join(scratch, 'elsewhere');
  mkdirSync(join(real, 's1', 'screenshots'), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'secret.txt'), 'SECRET-ELSEWHERE');
  writeFileSync(join(real, 's1', 'run.jsonl'), '{"line":1}\n');
  writeFileSync(join(real, 's1', 'screenshots', 'w1-1.png'), 'png bytes');
  symlinkSync(elsewhere, join(real, 's99'));
  symlinkSync(elsewhere, join(real, 's1', 'linked'));
  symlinkSync(join(elsewhere, 'secret.txt'), join(real, 's1', 'secret.txt'));
  // The configured root may itself be a link (a user's choice of --artifacts-dir).
  const root = join(scratch, 'root-link');
  symlinkSync(real, root);
  const route = artifactsRoute(
    root,
    () => ({ id: 'test', role: 'agent' }) as unknown as ClientIdentity,
    () => Promise.resolve(),
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
    expect(await get('/artifacts/s1/run.jsonl')).toEqual({ status: 200, body: '{"line":1}\n' });
    expect((await get('/artifacts/s1/screenshots/w1-1.png')).body).toBe('png bytes');
    expect((await get('/artifacts/s1/missing.txt')).status).toBe(404);
    expect((await get('/artifacts/s1/run.jsonl/more')).status).toBe(404);
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
