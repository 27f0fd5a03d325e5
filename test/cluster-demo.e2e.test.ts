import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descendantsOf, until } from './helpers/cluster-replicas.js';
import { gatewayClient } from './helpers/gateway-client.js';
import { expectPidsGone, signalEach } from './helpers/processes.js';
import { describeWithRedis } from './helpers/redis-suite.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Safety nets only: two demos launch within seconds on a quiet machine, minutes at load 15 on two cores. */
const READY_TIMEOUT_MS = 300_000;
/** Each replica's own shutdown is bounded at 10 s; the script kills a replica's group 20 s after asking. */
const STOP_TIMEOUT_MS = 60_000;

describeWithRedis('npm run cluster:demo: one Redis, two replicas, a demo session each', () => {
  let demo: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;
  /** Every process below npm once the demo is up, for the check that SIGTERM leaves none. */
  let started: number[] = [];

  /** The first match of `pattern` in what the script printed. */
  const printed = (pattern: RegExp) => pattern.exec(output)?.[1] ?? '';

  beforeAll(async () => {
    demo = spawn('npm', ['run', '--silent', 'cluster:demo'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
    demo.stderr!.resume();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never ready: ${output}`)), READY_TIMEOUT_MS);
      demo.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('cluster demo ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code} before it was ready: ${output}`));
      });
    });
    started = descendantsOf(demo.pid!);
  }, READY_TIMEOUT_MS);
  afterAll(async () => {
    // Only when a test failed before its own SIGTERM: leave nothing behind.
    if (demo?.exitCode === null) {
      demo.kill('SIGTERM');
      await exited;
    }
    signalEach(started, 'SIGKILL');
  }, STOP_TIMEOUT_MS);

  it('prints Redis and each replica’s GraphiQL and observer page; either lists both replicas and demo sessions', async () => {
    expect(printed(/Redis: (redis:\/\/127\.0\.0\.1:\d+) /)).not.toBe('');
    const urls = ['a', 'b'].map((id) =>
      printed(new RegExp(`replica ${id} GraphiQL: (http://127\\.0\\.0\\.1:\\d+/graphql)`)),
    );
    for (const [index, id] of ['a', 'b'].entries()) {
      const page = printed(new RegExp(`replica ${id} observer page: (http://\\S+/)`));
      expect(page).toBe(new URL('/', urls[index]).href);
      const response = await fetch(page, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    const onA = gatewayClient(urls[0]!);
    const { replicas, sessions } = await until(
      () => onA.data('{ replicas { id url status sessions } sessions { id status replica { id } } }'),
      (data) =>
        data.sessions.length === 2 && data.replicas.every((r: { sessions: number }) => r.sessions === 1),
      'both replicas with their demo sessions',
    );
    expect(replicas).toEqual([
      { id: 'a', url: urls[0], status: 'UP', sessions: 1 },
      { id: 'b', url: urls[1], status: 'UP', sessions: 1 },
    ]);
    expect([...sessions].sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'a-s1', status: 'RUNNING', replica: { id: 'a' } },
      { id: 'b-s1', status: 'RUNNING', replica: { id: 'b' } },
    ]);
  });

  it(
    'SIGTERM stops every process it started: Redis, both replicas and their apps',
    async () => {
      expect(started.length).toBeGreaterThan(4);
      demo.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expectPidsGone(started, STOP_TIMEOUT_MS);
    },
    STOP_TIMEOUT_MS * 2,
  );
});
