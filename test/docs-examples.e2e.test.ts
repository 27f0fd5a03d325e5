import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../domain/governance/policy/policy-file.js';
import { buildSchema } from '../schema/index.js';
import { type DocExample, docFiles, examplesOf, printed, probeSubscription } from './helpers/doc-examples.js';
import { gatewayClient, type Loose, type LooseResponse } from './helpers/gateway-client.js';
import { type GatewayProcess, serveInChild } from './helpers/gateway-process.js';

/**
 * Docs that are executed: every ```graphql block of README.md and docs/*.md runs, in the order a reader
 * meets it, against the demo exactly as `npm start` serves it (bin/stagegraph.js serve --demo, in a child
 * on its own port with its own artifact and audit folders). Each operation is its own test, named by file,
 * line and operation, so a failure points at the doc. Markers in a block (see test/helpers/doc-examples.ts)
 * say when an example shows a failure, runs as the demo's approver, or takes variables.
 */

/** Safety nets only: a loaded machine takes long to start Chromium, launch a session or settle a wait. */
const DEMO_READY_TIMEOUT_MS = 300_000;
const EXAMPLE_TIMEOUT_MS = 300_000;

/** The schema of a server started with --allow-eval: examples of eval and IPC are checked against it. */
const FULL_SCHEMA = buildSchema({ allowEval: 'both' });
/** Root fields whose `id` argument names the session (`session(id:)`, `stop(id:)` ...). */
const SESSION_BY_ID = new Set(['session', 'stop', 'forceKill', 'detach']);

let dir: string;
let demo: GatewayProcess;
let pagesOrigin: string;
let approverToken: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-docs-e2e-'));
  demo = await serveInChild(['--demo', '--audit-dir', join(dir, 'audit'), '--artifacts', dir]);
  // The demo session is up, and its instructions printed, once these lines are out.
  pagesOrigin = (await printed(demo.stderr, /demo session s1 .* is RUNNING; its pages: (http:\/\/\S+)/))[1]!;
  approverToken = (await printed(demo.stderr, /"Authorization": "Bearer (demo-approver-[0-9a-f]+)"/))[1]!;
}, DEMO_READY_TIMEOUT_MS);

afterAll(async () => {
  demo?.child.kill('SIGTERM');
  expect((await demo?.exited)?.code).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

/** Query and mutation root fields that act on a session but were not told which one. */
function unnamedSessions(example: DocExample): string[] {
  if (example.kind === 'subscription') return [];
  const root = example.kind === 'query' ? FULL_SCHEMA.getQueryType() : FULL_SCHEMA.getMutationType();
  const misses: string[] = [];
  for (const selection of example.document.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const field = root?.getFields()[selection.name.value];
    if (!field) continue;
    const needs = SESSION_BY_ID.has(field.name)
      ? 'id'
      : field.args.some((arg) => arg.name === 'session')
        ? 'session'
        : null;
    const given = new Set(selection.arguments?.map((argument) => argument.name.value));
    if (needs && !given.has(needs)) misses.push(`${field.name}(${needs}: …)`);
  }
  return misses;
}

function codesOf(errors: readonly { extensions?: { code?: string } }[] | undefined): (string | undefined)[] {
  return (errors ?? []).map((error) => error.extensions?.code);
}

/**
 * Attempts at an example whose every error is ACTION_TIMEOUT. The demo's default waits (5 s) are the product's,
 * sized for a responsive app, and a loaded machine (load 15 on 2 cores) can pass them; the code says nothing
 * reached the page and the answer is retryable, so the example is sent again, as a client would.
 */
const TIMEOUT_ATTEMPTS = 3;

async function sendResendingTimeouts(
  source: string,
  variables: Record<string, unknown> | undefined,
  headers: Record<string, string>,
): Promise<LooseResponse> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await gatewayClient(demo.url, headers).send(source, variables);
    const codes = codesOf(response.errors);
    if (attempt === TIMEOUT_ATTEMPTS || codes.length === 0 || codes.some((code) => code !== 'ACTION_TIMEOUT'))
      return response;
  }
}

async function run(example: DocExample): Promise<void> {
  const { markers } = example;
  const headers: Record<string, string> =
    markers.as === 'approver' ? { authorization: `Bearer ${approverToken}` } : {};
  const variables = markers.variables
    ? (JSON.parse(markers.variables.replaceAll('$DEMO_PAGES', pagesOrigin)) as Record<string, unknown>)
    : undefined;

  const invalid = validate(FULL_SCHEMA, parse(example.source)).map((error) => error.message);
  expect(invalid, 'the example is valid GraphQL for a server started with --allow-eval').toEqual([]);
  if (!markers.expectError)
    expect(unnamedSessions(example), 'every example names its session: more than one is live').toEqual([]);

  if (example.kind === 'subscription') {
    const probe = await probeSubscription(
      demo.url,
      example.source,
      variables,
      headers,
      !!markers.expectEvent,
    );
    if (markers.expectError) {
      expect(probe.started, 'the subscription should have failed, but it started').toBe(false);
      expect(codesOf(probe.first?.errors), JSON.stringify(probe.first)).toEqual(
        (probe.first?.errors ?? [undefined]).map(() => markers.expectError),
      );
      expect(probe.first?.errors?.length).toBeGreaterThan(0);
      return;
    }
    expect(probe.first?.errors, JSON.stringify(probe.first?.errors)).toBeUndefined();
    expect(probe.ended, 'the subscription ended before it started').toBeFalsy();
    expect(probe.started).toBe(true);
    if (markers.expectEvent) expect(probe.first?.data, 'the event promised').toBeTruthy();
    return;
  }

  const response = await sendResendingTimeouts(example.source, variables, headers);
  if (markers.expectError) {
    expect(
      response.errors?.length,
      `expected ${markers.expectError}, got ${JSON.stringify(response.data)}`,
    ).toBeGreaterThan(0);
    expect(codesOf(response.errors), JSON.stringify(response.errors)).toEqual(
      response.errors!.map(() => markers.expectError),
    );
    return;
  }
  if (markers.expectPartial) {
    expect(codesOf(response.errors), JSON.stringify(response.errors)).toEqual(markers.expectPartial);
    const failed = (response.errors ?? []).map((error: Loose) => error.path?.join('.'));
    const steps = Object.entries((response.data ?? {}) as Record<string, unknown>);
    expect(steps.length, 'the answer keeps data beside its errors').toBeGreaterThan(0);
    for (const [step, result] of steps)
      if (failed.includes(step)) expect(result, `${step} failed, so its result is null`).toBeNull();
      else expect(result, `${step} answered no error, so it has its result`).not.toBeNull();
    expect(
      failed.every((step) => steps.some(([name]) => name === step)),
      `errors at steps: ${failed}`,
    ).toBe(true);
    return;
  }
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  expect(response.data, 'the example returns data').toBeTruthy();
}

const files = docFiles();

describe('docs that are executed', () => {
  it('finds the README, the manual in docs/, and the README’s query, mutation and subscription', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/agents.md',
        'docs/observers-and-approvals.md',
        'docs/governance.md',
        'docs/transports.md',
        'docs/architecture.md',
      ]),
    );
    const kinds = examplesOf('README.md').map((example) => example.kind);
    expect(new Set(kinds)).toEqual(new Set(['query', 'mutation', 'subscription']));
  });

  it('every policy file the docs show is one the server accepts', () => {
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8');
      for (const match of text.matchAll(/^```yaml[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
        const line = text.slice(0, match.index).split('\n').length;
        expect(() => parsePolicy(Buffer.from(match[1]!), `${file}:${line}.yaml`)).not.toThrow();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

for (const file of files) {
  let examples: DocExample[];
  try {
    examples = examplesOf(file);
  } catch (error) {
    it(`${file}: every graphql block parses`, () => {
      throw error;
    });
    continue;
  }
  // A page without GraphQL examples (docs/architecture.md) has nothing to run.
  if (examples.length === 0) continue;
  describe(file, () => {
    for (const example of examples) {
      const name = `${example.file}:${example.line} ${example.title}`;
      if (example.markers.skip) {
        it.skip(`${name} (skip: ${example.markers.skip})`, () => {});
        continue;
      }
      it(name, () => run(example), EXAMPLE_TIMEOUT_MS);
    }
  });
}
