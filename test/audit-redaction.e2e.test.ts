import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getNamedType, isInputObjectType, isScalarType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgumentDisclosure } from '../domain/governance/redaction/redaction.js';
import { disclosureOf } from '../schema/argument-disclosure.js';
import { buildSchema } from '../schema/index.js';
import { type CaptureServer, startCaptureServer } from './helpers/capture-app.js';
import { fixtureLaunch } from './helpers/fixture-app.js';
import type { Loose } from './helpers/fixture-session.js';
import { type GovernedRun, startGovernedRun } from './helpers/governed-gateway.js';

/** Planted through every mutation that can carry a value; the files on disk are then searched for it. */
const SECRET = `sg-secret-${randomBytes(8).toString('hex')}`;
const json = (value: unknown) => JSON.stringify(JSON.stringify(value));

const POLICY = `
version: 1
nonInteractive: ALLOW
rules:
  - id: eval-and-ipc-in-this-test
    operation: [evalMain, evalRenderer, invokeIpc]
    decision: ALLOW
`;

/**
 * One mutation per Mutation field whose arguments include a value the audit must not show. Keyed by field
 * name: the coverage test fails when the schema gains such a field that is not planted through here.
 */
const PLANTS: Record<string, (origin: string) => string> = {
  setStorageItem: (origin) =>
    `setStorageItem(origin: "${origin}", area: LOCAL, key: "planted", value: "${SECRET}") { key }`,
  setCookie: (origin) => `setCookie(cookie: { name: "planted", value: "${SECRET}", url: "${origin}" })`,
  stubNetwork: () =>
    `stubNetwork(input: { pattern: "*/api/planted", body: "${SECRET}", headers: [{ name: "authorization", value: "${SECRET}" }] }) { id }`,
  invokeIpc: () => `invokeIpc(channel: "fixture:echo", args: ${json([SECRET])}) { reason }`,
  evalMain: () => `evalMain(code: "(_electron, arg) => typeof arg", arg: ${json(SECRET)}) { json }`,
  evalRenderer: () => `evalRenderer(code: "(arg) => typeof arg", arg: ${json(SECRET)}) { json }`,
  setDialogPolicy: () => `setDialogPolicy(default: ACCEPT, promptText: "${SECRET}") { default }`,
  expect: () =>
    `expect(kind: TEXT, target: { testId: "status" }, equals: "${SECRET}", timeoutMs: 50) { actual }`,
  launchCommand: () =>
    `launchCommand(input: { command: "/bin/false", env: [{ name: "PLANTED", value: "${SECRET}" }], timeoutMs: 2000 }) { id }`,
  launchDesktop: () =>
    `launchDesktop(input: { command: "/bin/false", env: [{ name: "PLANTED", value: "${SECRET}" }], timeoutMs: 30000 }) { id }`,
  // Typed into a password field: the typed-value rule, not the default, keeps these out.
  fill: () => `fill(target: { testId: "password" }, value: "${SECRET}") { windowId }`,
  type: () => `type(target: { testId: "password" }, text: "${SECRET}") { windowId }`,
};

/** Mutation fields with at least one argument part the schema redacts by default. */
function mutationsCarryingValues(): string[] {
  const schema = buildSchema({ allowEval: 'both' });
  const carrying = (type: Parameters<typeof getNamedType>[0], how: ArgumentDisclosure): boolean => {
    const named = getNamedType(type);
    if (isScalarType(named))
      return how === 'redact' && !['Int', 'Float', 'Boolean', 'ID'].includes(named.name);
    if (!isInputObjectType(named) || typeof how === 'string') return false;
    return Object.values(named.getFields()).some((field) =>
      carrying(field.type, how[field.name] ?? 'redact'),
    );
  };
  return Object.values(schema.getMutationType()?.getFields() ?? {})
    .filter((field) => {
      const how = disclosureOf(field) as Record<string, ArgumentDisclosure>;
      return field.args.some((arg) => carrying(arg.type, how[arg.name] ?? 'redact'));
    })
    .map((field) => field.name);
}

let dir: string;
let artifactsDir: string;
let server: CaptureServer;
let run: GovernedRun;

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stagegraph-redaction-e2e-'));
  artifactsDir = join(dir, 'artifacts');
  const policyFile = join(dir, 'policy.yaml');
  await writeFile(policyFile, POLICY);
  server = await startCaptureServer();
  run = await startGovernedRun(
    { policyFile, artifactsDir, allowEval: 'both', mutationsPerSecond: 1_000 },
    { launch: false },
  );
  // The launch itself carries the secret, in an environment variable's value.
  await run.agent.data('mutation ($input: LaunchInput!) { launch(input: $input) { id } }', {
    input: fixtureLaunch(undefined, { FIXTURE_CAPTURE_URL: `${server.url}/`, PLANTED: SECRET }),
  });
  await run.agent.data('mutation { click(target: { testId: "stop-ticking" }) { elapsedMs } }');
  // The capture window (the storage and cookie origin) opens after the main one, in the background.
  while ((await run.agent.data('{ session { windows { id } } }')).session.windows.length < 2)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(async () => {
  await run?.stop();
  await run?.cleanup();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('redaction of recorded arguments', () => {
  it('plants through every mutation whose arguments carry a value (the list follows the schema)', () => {
    const missing = mutationsCarryingValues().filter((name) => !(name in PLANTS) && name !== 'launch');
    expect(missing, 'add a plant for these mutations').toEqual([]);
  });

  it('keeps a planted secret out of every file of the audit trail and the artifacts', async () => {
    const outcomes: Record<string, string> = {};
    for (const [name, plant] of Object.entries(PLANTS)) {
      const response = await run.agent.send(`mutation { ${plant(server.url)} }`);
      outcomes[name] = response.errors?.[0]?.extensions?.code ?? 'ok';
    }
    // The plants that must have reached the app did; expect, launchCommand and launchDesktop fail by design.
    expect(outcomes).toMatchObject({
      setStorageItem: 'ok',
      setCookie: 'ok',
      stubNetwork: 'ok',
      invokeIpc: 'ok',
      evalMain: 'ok',
      setDialogPolicy: 'ok',
      fill: 'ok',
      expect: 'EXPECTATION_FAILED',
    });
    const { audit } = await run.agent.data(
      '{ audit(first: 500) { edges { node { operation arguments } } } }',
    );
    const recorded = new Set(audit.edges.map((edge: Loose) => edge.node.operation));
    for (const name of ['launch', ...Object.keys(PLANTS)]) expect(recorded.has(name), name).toBe(true);
    const storage = audit.edges.find((edge: Loose) => edge.node.operation === 'setStorageItem').node;
    expect(JSON.parse(storage.arguments)).toMatchObject({ key: 'planted', value: '[REDACTED:value]' });

    await run.gateway.gateway.governance?.audit.flush();
    const files = [...(await filesUnder(run.auditDir)), ...(await filesUnder(artifactsDir))];
    expect(files.length).toBeGreaterThan(1);
    const leaking: string[] = [];
    for (const file of files)
      for (const line of (await readFile(file, 'utf8')).split('\n'))
        if (line.includes(SECRET)) leaking.push(`${file}: ${line.slice(0, 400)}`);
    expect(leaking).toEqual([]);
  });
});
