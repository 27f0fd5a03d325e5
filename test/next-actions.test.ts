import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  notInstrumentedActions,
  type SessionFacts,
  sessionActions,
} from '../domain/sessions/next-actions.js';
import { ERROR_CODES } from '../errors/registry.js';
import { buildSchema } from '../schema/index.js';
import { CAPABILITIES, capabilityMatrix } from '../transports/contract/capabilities.js';

const schema = buildSchema({ allowEval: 'both' });
const ROOT = new URL('..', import.meta.url).pathname;

/** A next action is a real operation: it parses and validates against the schema the server serves. */
function expectValid(operation: string) {
  expect(
    validate(schema, parse(operation)).map((error) => error.message),
    operation,
  ).toEqual([]);
}

const SESSIONS: Record<string, SessionFacts> = {
  'an owned launch': {
    id: 's1',
    transportId: 'playwright-electron',
    capabilities: capabilityMatrix(['LAUNCH', 'NATIVE_UI', 'SNAPSHOT']),
    ownsProcess: true,
    launch: { main: '/home/me/app "quoted"/main.js', executablePath: '/opt/electron/electron' },
  },
  'an owned launch of an executable only': {
    id: 's2',
    transportId: 'playwright-electron',
    capabilities: capabilityMatrix(['LAUNCH', 'NATIVE_UI']),
    ownsProcess: true,
    launch: { main: null, executablePath: '/opt/app/app' },
  },
  'an attached app Stagegraph did not start': {
    id: 's3',
    transportId: 'cdp',
    capabilities: capabilityMatrix(['ATTACH', 'SNAPSHOT']),
    ownsProcess: false,
    launch: { main: null, executablePath: null },
  },
  'an injected app': {
    id: 's4',
    transportId: 'inspector',
    capabilities: capabilityMatrix(['INJECT', 'NATIVE_UI', 'MAIN_EVAL']),
    ownsProcess: false,
    launch: { main: null, executablePath: null },
  },
};

function everyAction(session: SessionFacts): string[] {
  return [
    sessionActions.listSessions(),
    sessionActions.overview(session),
    sessionActions.windows(session),
    sessionActions.postMortem(session),
    sessionActions.end(session),
    sessionActions.relaunchInstrumented(session),
    ...CAPABILITIES.map((capability) => sessionActions.transportsWith(capability)),
    ...notInstrumentedActions(session),
  ].filter((action): action is string => action !== undefined);
}

describe('next actions offered on a session', () => {
  it.each(Object.entries(SESSIONS))('on %s validate against the schema', (_, session) => {
    for (const action of everyAction(session)) expectValid(action);
  });

  it.each(Object.entries(SESSIONS))('on %s name that session and never a placeholder', (_, session) => {
    for (const action of everyAction(session)) {
      expect(action).not.toMatch(/\/path\/to|<[a-z]+>|\.\.\./);
      const ids = [...action.matchAll(/\bid: "([^"]*)"/g)].map((match) => match[1]);
      expect(ids.every((id) => id === session.id)).toBe(true);
    }
  });

  it('offer stop only on sessions Stagegraph owns, and detach on the others', () => {
    for (const session of Object.values(SESSIONS)) {
      const actions = notInstrumentedActions(session).join('\n');
      expect(/\b(stop|forceKill)\(/.test(actions), session.id).toBe(session.ownsProcess);
      expect(/\bdetach\(/.test(actions), session.id).toBe(!session.ownsProcess);
    }
  });

  it("relaunch with the session's own main and executable, and only when it had a main", () => {
    const owned = SESSIONS['an owned launch']!;
    const [, relaunch] = notInstrumentedActions(owned);
    const input = parse(relaunch!);
    expect(JSON.stringify(input)).toContain(JSON.stringify(owned.launch.main).slice(1, -1));
    expect(relaunch).toContain('"/opt/electron/electron"');
    expect(relaunch).toContain('instrumentNative: true');
    for (const session of Object.values(SESSIONS).filter((s) => !s.launch.main)) {
      expect(notInstrumentedActions(session).join('\n')).not.toContain('launch(');
    }
  });
});

/** Every source file of the layers that raise errors. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('next actions written as fixed text in the sources', () => {
  const fixed = ['errors', 'transports', 'domain', 'schema', 'server']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/'((?:query|mutation|subscription) \{[^'\n]*\})'/g)].map(
        (match) => [relative(ROOT, file), match[1]!] as const,
      ),
    );

  it('are found', () => {
    expect(fixed.length).toBeGreaterThan(3);
  });

  it.each(fixed)('%s: %s validates against the schema', (_, operation) => {
    expect(operation).not.toMatch(/\/path\/to/);
    expectValid(operation);
  });

  it('hints name enum values in the casing the schema and policy files take', () => {
    expect(ERROR_CODES.APPROVAL_UNAVAILABLE.hint).toMatch(/nonInteractive: DENY/);
    expect(ERROR_CODES.SESSION_AMBIGUOUS.hint).toMatch(/`session:` argument/);
  });
});
