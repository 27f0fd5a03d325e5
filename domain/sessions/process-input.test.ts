import { describe, expect, it, vi } from 'vitest';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { fakeTransport } from '../../test/helpers/fake-transport.js';
import { EventHub } from '../events/event-hub.js';
import type { SessionTopics } from '../events/session-topics.js';
import { commandOptions } from './attach-requests.js';
import { desktopLaunchOptions } from './desktop-requests.js';
import type { ProcessInput as Checked } from './process-input.js';
import { SessionRegistry } from './session-registry.js';

/** A command, when given, is a string: the schema requires it. */
type ProcessInput = Checked & { readonly command?: string };

const thrown = async (work: () => unknown): Promise<StagegraphError> => {
  const error = await Promise.resolve()
    .then(work)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(StagegraphError);
  return error as StagegraphError;
};

// Found by the schema fuzz (issue 31): a NUL byte in any of these answered INTERNAL from launchCommand and
// launchDesktop (Node's spawn throws a TypeError) and LAUNCH_FAILED from launch, as if the app had failed.
const malformed: [string, ProcessInput, string][] = [
  ['a NUL in an argument', { args: ['ok', 'a\u0000b'] }, 'input.args[1]'],
  ['a NUL in an environment name', { env: [{ name: 'A\u0000', value: 'x' }] }, 'input.env[0].name'],
  ['a NUL in an environment value', { env: [{ name: 'A', value: 'x\u0000' }] }, 'input.env[0].value'],
  ['an empty environment name', { env: [{ name: '', value: 'x' }] }, 'input.env[0].name'],
  ['an environment name with `=`', { env: [{ name: 'A=B', value: 'x' }] }, 'input.env[0].name'],
  ['a NUL in the working folder', { cwd: '/tmp\u0000' }, 'input.cwd'],
];

describe('what a process is started with: a NUL byte or a nameless variable is the caller’s input', () => {
  it.each([...malformed, ['a NUL in the command', { command: '/bin/true\u0000' }, 'input.command']] as [
    string,
    ProcessInput,
    string,
  ][])('launchCommand refuses %s with BAD_INPUT naming it', async (_, input, field) => {
    const error = await thrown(() => commandOptions({ command: '/bin/true', ...input }, '/tmp/out'));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain(field);
    expect(error.details).toEqual({ field });
  });

  it.each([...malformed, ['a NUL in the command', { command: 'xterm\u0000' }, 'input.command']] as [
    string,
    ProcessInput,
    string,
  ][])('launchDesktop refuses %s with BAD_INPUT naming it', async (_, input, field) => {
    const error = await thrown(() => desktopLaunchOptions({ command: 'xterm', ...input }, '/tmp/out'));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.details).toEqual({ field });
  });

  it.each([
    ...malformed,
    ['a NUL in main', { main: '/app/main.js\u0000x' }, 'input.main'],
    ['a NUL in executablePath', { executablePath: '/bin/electron\u0000' }, 'input.executablePath'],
  ] as [string, ProcessInput, string][])(
    'launch refuses %s with BAD_INPUT before the transport starts anything',
    async (_, input, field) => {
      const transport = fakeTransport('playwright-electron', ['LAUNCH']);
      const launch = vi.spyOn(transport, 'launch');
      const sessions = new SessionRegistry([transport], new EventHub<SessionTopics>());
      const error = await thrown(() => sessions.launch({ main: '/app/main.js', ...input }));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.details).toEqual({ field });
      expect(launch).not.toHaveBeenCalled();
    },
  );

  it('passes well-formed input on, `=` in a value included', async () => {
    const options = commandOptions(
      { command: '/bin/true', args: ['--x=1', ''], env: [{ name: 'A', value: 'b=c' }], cwd: '/tmp' },
      '/tmp/out',
    );
    expect(options).toMatchObject({ args: ['--x=1', ''], env: { A: 'b=c' }, cwd: '/tmp' });
  });
});
