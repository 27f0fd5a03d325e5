import { errors } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ISOLATED_LAUNCHER } from '../process/isolation.js';
import { launchFailure, StartTimeout } from './launch-failure.js';

/** Playwright's launch error as it reads: its message, then the call log, dimmed. */
const LAUNCH_LOG = [
  'electron.launch: Process failed to launch!',
  'Call log:',
  '\u001b[2m  - <launched> pid=27191\u001b[22m',
  '\u001b[2m  - [pid=27191][err] Debugger listening on ws://127.0.0.1:34383/24f6\u001b[22m',
  '\u001b[2m  - [pid=27191][err] A JavaScript error occurred in the main process\u001b[22m',
  "\u001b[2m  - [pid=27191][err] SyntaxError: Unexpected token ':'\u001b[22m",
  '\u001b[2m  - [pid=27191][err]     at wrapSafe (node:internal/modules/cjs/loader:1464:18)\u001b[22m',
].join('\n');
const FACTS = { executablePath: '/apps/electron', timeoutMs: 30_000 };

describe('launchFailure', () => {
  // Found by the schema fuzz (issue 31, seed 31): an isolated launch's call log named the gateway's own
  // launcher script, /…/transports/process/isolated-launcher.sh, in details.log.
  it('names the app’s executable where the call log names the gateway’s isolating launcher', () => {
    const log = `electron.launch: Process failed to launch!\nCall log:\n  - <launching> ${ISOLATED_LAUNCHER} --no-sandbox --inspect=0`;
    const failure = launchFailure(new Error(log), FACTS);
    expect(JSON.stringify({ message: failure.message, details: failure.details })).not.toContain(
      ISOLATED_LAUNCHER,
    );
    expect(failure.details?.log).toContain(`<launching> ${FACTS.executablePath} --no-sandbox`);
  });

  it("answers a launch Playwright gave up on with the app's own error line from the call log", () => {
    const failure = launchFailure(new Error(LAUNCH_LOG), FACTS);
    expect(failure).toMatchObject({
      code: 'LAUNCH_FAILED',
      message: "The app failed to start: SyntaxError: Unexpected token ':'",
      details: {
        stderrTail: [
          'A JavaScript error occurred in the main process',
          "SyntaxError: Unexpected token ':'",
          '    at wrapSafe (node:internal/modules/cjs/loader:1464:18)',
        ].join('\n'),
      },
    });
  });

  it('says the app exited by itself, and why, when it died while its session was set up', () => {
    const failure = launchFailure(
      new Error('electronApplication.evaluate: Execution context was destroyed'),
      {
        ...FACTS,
        exit: { code: 1, signal: null },
        stderr: ["SyntaxError: Unexpected token ':'"],
      },
    );
    expect(failure).toMatchObject({
      code: 'LAUNCH_FAILED',
      message: "The app exited (code 1) during start-up: SyntaxError: Unexpected token ':'",
      details: { exit: { code: 1, signal: null } },
    });
    expect(launchFailure(new Error('closed'), { ...FACTS, exit: { code: 0, signal: null } }).message).toBe(
      'The app exited (code 0) during start-up.',
    );
  });

  it("reads from the call log how an app that was not Electron ended, not how the launcher's kill ended it", () => {
    const exitedByItself = [
      'electron.launch: Process failed to launch!',
      'Call log:',
      '  - <launched> pid=4242',
      '  - [pid=4242] <kill>',
      '  - [pid=4242] <process did exit: exitCode=0, signal=null>',
    ].join('\n');
    expect(launchFailure(new Error(exitedByItself), FACTS)).toMatchObject({
      message: 'The app exited (code 0) during start-up.',
      details: { exit: { code: 0, signal: null } },
    });
    const killed = exitedByItself.replace('exitCode=0, signal=null', 'exitCode=null, signal=SIGKILL');
    expect(launchFailure(new Error(killed), FACTS).message).toBe(
      'The app failed to start: electron.launch: Process failed to launch!',
    );
  });

  it('answers LAUNCH_TIMEOUT when the app did not become drivable in time and said nothing wrong', () => {
    for (const error of [new errors.TimeoutError('Timeout 30000ms exceeded'), new StartTimeout('late')]) {
      expect(launchFailure(error, FACTS)).toMatchObject({
        code: 'LAUNCH_TIMEOUT',
        message: 'The app did not become drivable within 30000 ms.',
      });
    }
  });
});
