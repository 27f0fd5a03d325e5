import { describe, expect, it } from 'vitest';
import { appErrorLine } from './app-error-line.js';

describe('appErrorLine', () => {
  it("finds the error an app's main printed before its stack", () => {
    const stderr = [
      'A JavaScript error occurred in the main process',
      '/etc/passwd:1',
      'root:x:0:0:root:/root:/bin/bash',
      '        ^',
      '',
      "SyntaxError: Unexpected token ':'",
      '    at wrapSafe (node:internal/modules/cjs/loader:1464:18)',
      'Node.js v20.20.2',
    ];
    expect(appErrorLine(stderr)).toBe("SyntaxError: Unexpected token ':'");
  });

  it('reads an uncaught error and an exception too, and nothing where no line names one', () => {
    expect(appErrorLine(['  Uncaught TypeError: x is not a function'])).toBe(
      'Uncaught TypeError: x is not a function',
    );
    expect(appErrorLine(['NullPointerException at boot'])).toBe('NullPointerException at boot');
    expect(appErrorLine(['no display here', 'exiting'])).toBeUndefined();
  });
});
