// `stagegraph query` and `stagegraph watch` as a shell script or CI step runs them: the real bin, spawned
// against a running gateway that requires a token, driving the fixture app.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLaunch, STAND_IN } from './helpers/fixture-app.js';
import { UNATTENDED_POLICY } from './helpers/fixture-session.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

const BIN = fileURLToPath(new URL('../bin/stagegraph.js', import.meta.url));
const TOKEN = 'cli-suite-token';
const LAUNCH = 'mutation ($input: LaunchInput!) { launch(input: $input) { id status } }';
const CLICK_LOG = 'mutation { click(target: { testId: "log" }) { elapsedMs } }';
const CLICKS =
  'subscription ($session: ID) { console(session: $session, replay: true, textContains: "button clicked") { entry { text } } }';

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Running {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves once stdout holds `count` lines. */
  lines$(count: number): Promise<string[]>;
  readonly done: Promise<Run>;
}

let gateway: RunningGateway;
let sessionId: string;
let scratch: string;
const children = new Set<ChildProcess>();

/** The CLI as a script runs it; asynchronous, since the gateway it talks to runs in this same process. */
function start(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, STAGEGRAPH_URL: gateway.url, STAGEGRAPH_TOKEN: TOKEN, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdin.end(options.input ?? '');
  let stdout = '';
  let stderr = '';
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    lines.splice(0, lines.length, ...stdout.split('\n').filter((line) => line !== ''));
    for (const waiter of waiters) waiter();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Run>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      for (const waiter of waiters) waiter();
      resolve({ code, signal, stdout, stderr });
    }),
  );
  const linesFn = (count: number) =>
    new Promise<string[]>((resolve, reject) => {
      const check = () => {
        if (lines.length >= count) resolve([...lines]);
        else if (child.exitCode !== null || child.signalCode !== null)
          reject(new Error(`exited with ${lines.length} of ${count} lines; stderr: ${stderr}`));
        else return;
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { child, lines, lines$: linesFn, done };
}

const run = (args: readonly string[], options?: { env?: NodeJS.ProcessEnv; input?: string }) =>
  start(args, options).done;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'stagegraph-cli-'));
  gateway = await startGateway({ token: TOKEN, policyFile: UNATTENDED_POLICY });
  const launched = await run([
    'query',
    LAUNCH,
    '--variables',
    JSON.stringify({ input: fixtureLaunch(STAND_IN) }),
  ]);
  expect(launched.code, launched.stdout + launched.stderr).toBe(0);
  sessionId = JSON.parse(launched.stdout).data.launch.id;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await gateway?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('stagegraph query', () => {
  it('prints the JSON answer and exits 0, loading neither tsx nor the server', async () => {
    const result = await run(['query', '{ sessions { id status } }'], { env: { NODE_DEBUG: 'esm' } });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: { sessions: [{ id: sessionId, status: 'RUNNING' }] } });
    const loaded = [...result.stderr.matchAll(/Storing (file:\/\/\S+)/g)].map((match) => match[1]!);
    expect(loaded.some((url) => url.endsWith('/cli/query.js'))).toBe(true);
    expect(loaded.filter((url) => /tsx|graphql|yoga|\.ts$/.test(url))).toEqual([]);
  });

  it('reads the document from a file and from stdin, and variables from a file', async () => {
    const document = join(scratch, 'session.graphql');
    const variables = join(scratch, 'variables.json');
    writeFileSync(document, 'query ($id: ID) { session(id: $id) { id } }');
    writeFileSync(variables, JSON.stringify({ id: sessionId }));
    const fromFile = await run(['query', `@${document}`, '--variables', `@${variables}`]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).data.session.id).toBe(sessionId);
    const fromStdin = await run(['query', '-'], { input: '{ sessions { id } }' });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout).data.sessions).toEqual([{ id: sessionId }]);
  });

  it('prints an error answer with its code and exits 1', async () => {
    const result = await run(['query', '{ session(id: "no-such-session") { id } }']);
    expect(result.code).toBe(1);
    const answer = JSON.parse(result.stdout);
    expect(answer.errors[0].extensions.code).toBe('SESSION_NOT_FOUND');
    expect(answer.errors[0].extensions.hint).toEqual(expect.any(String));
  });

  it('exits 1 with UNAUTHENTICATED when the token is missing or wrong', async () => {
    for (const token of ['', 'not-the-token']) {
      const result = await run(['query', '{ sessions { id } }'], { env: { STAGEGRAPH_TOKEN: token } });
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('exits 2 with a message on stderr for bad variables, no document, an unknown option or several operations unnamed', async () => {
    const cases: [string[], string][] = [
      [['query', '{ sessions { id } }', '--variables', '{not json'], '--variables is not valid JSON'],
      [['query', '{ sessions { id } }', '--variables', '[1]'], '--variables must be a JSON object'],
      [['query'], 'No GraphQL document given'],
      [['query', '{ sessions { id } }', '--bogus'], "Unknown option '--bogus'"],
      [['query', '{ sessions { id } }', '--url', 'nowhere'], '--url is not a URL'],
      [
        ['query', 'query A { sessions { id } } query B { transports { id } }'],
        'The document holds 2 operations (A, B): name one with --operation',
      ],
      [
        ['watch', 'subscription A { sessionEvents { type } } subscription B { console { seq } }'],
        'The document holds 2 operations (A, B): name one with --operation',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
    }
  });

  it('exits 1 saying so when no gateway answers', async () => {
    const result = await run(['query', '{ sessions { id } }', '--url', 'http://127.0.0.1:9/graphql']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Cannot reach the gateway at http://127.0.0.1:9/graphql');
  });
});

describe('stagegraph watch', () => {
  it('prints one JSON line per event and exits 0 after --count events', async () => {
    // One click before watching: the replayed entry shows the subscription is live before the second.
    expect((await run(['query', CLICK_LOG])).code).toBe(0);
    const watch = start([
      'watch',
      CLICKS,
      '--variables',
      JSON.stringify({ session: sessionId }),
      '--count',
      '2',
    ]);
    const [replayed] = await watch.lines$(1);
    expect(JSON.parse(replayed!)).toEqual({
      data: { console: { entry: { text: 'fixture: button clicked' } } },
    });
    expect((await run(['query', CLICK_LOG])).code).toBe(0);
    const result = await watch.done;
    expect(result.code, result.stderr).toBe(0);
    expect(watch.lines).toHaveLength(2);
    expect(JSON.parse(watch.lines[1]!).data.console.entry.text).toBe('fixture: button clicked');
  });

  it('ends cleanly on SIGINT', async () => {
    const watch = start(['watch', CLICKS, '--variables', JSON.stringify({ session: sessionId })]);
    await watch.lines$(1);
    watch.child.kill('SIGINT');
    const result = await watch.done;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('exits 1 on an error event, printing it as JSON', async () => {
    const result = await run(['watch', CLICKS, '--variables', '{"session": "no-such-session"}']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.trim()).errors[0].extensions.code).toBe('SESSION_NOT_FOUND');
  });

  it('exits 1 saying why when the gateway refuses the connection', async () => {
    const result = await run(['watch', CLICKS], { env: { STAGEGRAPH_TOKEN: 'not-the-token' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('UNAUTHENTICATED');
  });

  it('exits 2 on a bad --count', async () => {
    const result = await run(['watch', CLICKS, '--count', 'many']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--count must be a positive whole number');
  });
});
