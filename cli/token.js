// `stagegraph token create --role <role> [--file <path>]`: a fresh token, printed once; only its hash is
// kept, in a file only its owner can read, which `stagegraph serve --<role>-token-file` reads. An app the
// gateway launches runs as the same user and can read that file: it finds a hash it cannot present.
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { hashLine, newToken, openToOthers, PRIVATE_FILE_MODE } from '../server/token-record.js';
import { parseCommandLine, UsageError } from './options.js';

const ROLES = ['agent', 'approver', 'observer'];
const FILE_FLAG = {
  agent: '--token-file',
  approver: '--approver-token-file',
  observer: '--observer-token-file',
};

export const TOKEN_USAGE = `Usage: stagegraph token create --role <agent|approver|observer> [--file <path>]

Prints a new random token (32 bytes, base64url) once on stdout. With --file, appends only its hash
(sha256:<hex>) to that file, creating it with mode 600; a file open to group or others is refused.
Without --file, prints the hash line on stderr for you to store. The token itself is kept nowhere.

Start the gateway with the file:
  stagegraph serve --token-file agent.tokens --approver-token-file approver.tokens

Options:
  --role <role>   agent, approver or observer
  --file <path>   the token file to append the hash to
  --help          this text`;

/**
 * @param {readonly string[]} argv the arguments after `token`
 * @returns {Promise<number>} the exit code
 */
export async function runToken(argv) {
  let parsed;
  try {
    parsed = parseCommandLine(argv, {
      role: { type: 'string' },
      file: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message);
    throw error;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    process.stdout.write(`${TOKEN_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'create')
    return usageError('The only subcommand is "create".');
  const role = values.role;
  if (role === undefined || !ROLES.includes(role)) return usageError(`--role takes ${ROLES.join(', ')}.`);
  const token = newToken();
  const line = hashLine(token);
  if (values.file === undefined) {
    process.stderr.write(
      `${line}\n(put this line in a mode-600 file given to ${FILE_FLAG[/** @type {'agent'} */ (role)]})\n`,
    );
  } else {
    try {
      appendPrivately(values.file, line, role);
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    process.stderr.write(
      `The ${role} token's hash was added to ${values.file}; the token is shown only now.\n`,
    );
  }
  process.stdout.write(`${token}\n`);
  return 0;
}

/**
 * Appends `line` to `path`, creating it mode 600; refuses a file open to group or others or not a regular
 * file. The mode is checked on the open descriptor, so a file swapped after the check is not the one written.
 * @param {string} path
 * @param {string} line
 * @param {string} role
 */
function appendPrivately(path, line, role) {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file.`);
    if (openToOthers(stat.mode))
      throw new Error(
        `${path} is open to group or others (mode ${(stat.mode & 0o777).toString(8)}); run \`chmod 600 ${path}\` first.`,
      );
    writeSync(fd, `# ${role} token created ${new Date().toISOString()}\n${line}\n`);
  } finally {
    closeSync(fd);
  }
}

/** @param {string} message */
function usageError(message) {
  process.stderr.write(`${message}\n\n${TOKEN_USAGE}\n`);
  return 2;
}
