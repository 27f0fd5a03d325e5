import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as pageStateBuilders from '../domain/page-state/next-actions.js';
import * as sessionBuilders from '../domain/sessions/next-actions.js';
import {
  notInstrumentedActions,
  type SessionFacts,
  sessionActions,
} from '../domain/sessions/next-actions.js';
import * as snapshotBuilders from '../domain/snapshot/next-actions.js';
import { ERROR_CODES } from '../errors/registry.js';
import { buildSchema } from '../schema/index.js';
import { CAPABILITIES, capabilityMatrix } from '../transports/contract/capabilities.js';
import * as transportBuilders from '../transports/contract/transport-next-actions.js';

const schema = buildSchema({ allowEval: 'both' });
const ROOT = new URL('..', import.meta.url).pathname;
const LAYERS = ['errors', 'transports', 'domain', 'schema', 'server'];

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

/** Arguments to call a builder with: one list per call. */
type Calls<F> = F extends (...args: infer A) => unknown ? readonly Readonly<A>[] : never;
/** For each export of a builder module, the calls to make: a builder's, or each builder's of an object. */
type Examples<M> = {
  [K in keyof M]: M[K] extends (...args: never[]) => unknown
    ? Calls<M[K]>
    : { [B in keyof M[K]]: Calls<M[K][B]> };
};

function examples<M>(module: M, calls: Examples<M>) {
  return { module: module as Record<string, unknown>, calls: calls as Record<string, unknown> };
}

const eachSession = Object.values(SESSIONS).map((session) => [session] as const);
const AT = { sessionId: 's1', windowId: 'w1' };

/**
 * Every module that builds next actions, with the calls that exercise all it exports. A module or export
 * missing here fails the tests below (and the typecheck), so no builder escapes validation.
 */
const BUILDERS = {
  'domain/sessions/next-actions.ts': examples(sessionBuilders, {
    sessionActions: {
      listSessions: [[]],
      overview: eachSession,
      windows: eachSession,
      postMortem: eachSession,
      end: eachSession,
      relaunchInstrumented: eachSession,
      transportsWith: CAPABILITIES.map((capability) => [capability] as const),
    },
    notInstrumentedActions: eachSession,
  }),
  'domain/snapshot/next-actions.ts': examples(snapshotBuilders, {
    windowActions: {
      snapshot: [[AT]],
      interactive: [[AT]],
      node: [[AT, 'e12']],
      find: [
        [AT, 'button'],
        [AT, 'button', 'Say "hi" \\ \n'],
      ],
    },
    refRecoveryActions: [
      [{ sessionId: 's1' }],
      [{ sessionId: 's1', windowId: 'w1', role: 'button', name: 'Save' }],
      [{ sessionId: 's1', windowId: 'w1', role: 'link', name: null }],
    ],
  }),
  'transports/contract/transport-next-actions.ts': examples(transportBuilders, {
    transportActions: {
      discover: [[[9222]], [[9222, 9229]]],
      injectAgain: [
        [4242, 10_000],
        [4242, 100_000],
      ],
      desktopApps: [[]],
    },
  }),
  'domain/page-state/next-actions.ts': examples(pageStateBuilders, {
    pageStateActions: {
      installClock: [['s1']],
      storageOrigins: [['s1']],
      localStorageKeys: [
        ['s1', 'http://127.0.0.1:8080'],
        ['s1', 'file://'],
      ],
      networkCaptures: [['s1']],
      networkStubs: [['s1']],
    },
  }),
};

/** Every action each builder makes from its examples, named by where it came from. */
function built(): [string, string][] {
  return Object.entries(BUILDERS).flatMap(([file, { module, calls }]) =>
    Object.entries(calls).flatMap(([name, entry]) => {
      const builders: [string, unknown, unknown][] = Array.isArray(entry)
        ? [[name, module[name], entry]]
        : Object.entries(entry as object).map(([key, list]) => [
            `${name}.${key}`,
            (module[name] as Record<string, unknown>)[key],
            list,
          ]);
      return builders.flatMap(([builder, make, list]) =>
        (list as unknown[][]).flatMap((args) =>
          [(make as (...args: unknown[]) => string | string[] | undefined)(...args)]
            .flat()
            .filter((action): action is string => action !== undefined)
            .map((action) => [`${file} ${builder}`, action] as [string, string]),
        ),
      );
    }),
  );
}

/** Every source file of the layers. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

const SOURCES = LAYERS.flatMap((dir) => sourceFiles(join(ROOT, dir))).map((file) => relative(ROOT, file));

describe('next-action builders', () => {
  it('are all listed here, with every export they have', () => {
    expect(SOURCES.filter((file) => file.endsWith('next-actions.ts')).sort()).toEqual(
      Object.keys(BUILDERS).sort(),
    );
    for (const [file, { module, calls }] of Object.entries(BUILDERS)) {
      expect(Object.keys(calls).sort(), file).toEqual(Object.keys(module).sort());
      for (const [name, entry] of Object.entries(calls)) {
        const exported = module[name];
        if (typeof exported === 'function') expect((entry as unknown[]).length, name).toBeGreaterThan(0);
        else {
          expect(Object.keys(entry as object).sort(), name).toEqual(Object.keys(exported as object).sort());
          for (const list of Object.values(entry as object)) expect(list.length, name).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each(built())('%s: %s validates against the schema', (_, action) => {
    expect(action).not.toMatch(/\/path\/to|<[a-z]+>|\.\.\./);
    expectValid(action);
  });
});

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
  it.each(Object.entries(SESSIONS))('on %s name that session and never a placeholder', (_, session) => {
    for (const action of everyAction(session)) {
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

describe('next actions written in the sources', () => {
  const texts = SOURCES.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const);
  const fixed = texts.flatMap(([file, text]) =>
    [...text.matchAll(/'((?:query|mutation|subscription) \{[^'\n]*\})'/g)].map(
      (match) => [file, match[1]!] as const,
    ),
  );

  it('are found', () => {
    expect(fixed.length).toBeGreaterThan(3);
  });

  it.each(fixed)('%s: %s validates against the schema', (_, operation) => {
    expect(operation).not.toMatch(/\/path\/to/);
    expectValid(operation);
  });

  it('are built from values only in a builder, where the tests above call them', () => {
    const inPlace = texts
      .filter(([file]) => !file.endsWith('next-actions.ts'))
      .filter(([, text]) => /`(?:query|mutation|subscription) \{/.test(text))
      .map(([file]) => file);
    expect(inPlace).toEqual([]);
  });

  it('hints name enum values in the casing the schema and policy files take', () => {
    expect(ERROR_CODES.APPROVAL_UNAVAILABLE.hint).toMatch(/nonInteractive: DENY/);
    expect(ERROR_CODES.SESSION_AMBIGUOUS.hint).toMatch(/`session:` argument/);
  });
});
