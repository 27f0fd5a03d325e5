import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * What a client gives to start a process (launch, launchCommand, launchDesktop), checked before any of it
 * reaches the file system or spawn. The kernel takes paths, arguments and environment entries as C strings:
 * a NUL byte ends one early, so Node refuses it with a TypeError (launchCommand and launchDesktop answered
 * INTERNAL, launch LAUNCH_FAILED as if the app had failed). An environment name with `=` or no characters
 * is no variable a program can read (`A=B=c` is A set to `B=c`): that is refused too, not passed on garbled.
 */
export interface ProcessInput {
  readonly command?: string | null;
  readonly main?: string | null;
  readonly executablePath?: string | null;
  readonly cwd?: string | null;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
}

const HINT =
  'Paths, arguments and environment entries are C strings to the kernel: leave out NUL bytes, and give each environment variable a name without `=`.';

function refuse(operation: string, field: string, message: string): never {
  throw new StagegraphError('BAD_INPUT', `${operation}(input.${field}): ${message}`, {
    hint: HINT,
    details: { field: `input.${field}` },
  });
}

const NUL = '\u0000';

function checkText(operation: string, field: string, text: string | null | undefined): void {
  if (text?.includes(NUL)) refuse(operation, field, 'it holds a NUL byte, which ends a C string early.');
}

/** Refuses, with BAD_INPUT naming the field, what no process can be started with. */
export function checkProcessInput(operation: string, input: ProcessInput): void {
  checkText(operation, 'command', input.command);
  checkText(operation, 'main', input.main);
  checkText(operation, 'executablePath', input.executablePath);
  checkText(operation, 'cwd', input.cwd);
  for (const [index, arg] of (input.args ?? []).entries()) checkText(operation, `args[${index}]`, arg);
  for (const [index, { name, value }] of (input.env ?? []).entries()) {
    if (name === '') refuse(operation, `env[${index}].name`, 'an environment variable needs a name.');
    if (name.includes('='))
      refuse(operation, `env[${index}].name`, 'a name cannot hold `=`, which ends it in the environment.');
    checkText(operation, `env[${index}].name`, name);
    checkText(operation, `env[${index}].value`, value);
  }
}
