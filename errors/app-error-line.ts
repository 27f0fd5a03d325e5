/** The line of a JavaScript error or stack that names it: `SyntaxError: Unexpected token ':'`. */
const ERROR_LINE = /^(?:Uncaught )?[A-Z]\w*(?:Error|Exception)\b/;

/**
 * The line of an app's last stderr lines that says what went wrong (the first naming an error, as a Node or
 * Electron main process prints an uncaught one before its stack), trimmed; undefined when none does.
 */
export function appErrorLine(stderr: readonly string[]): string | undefined {
  return stderr.map((line) => line.trim()).find((line) => ERROR_LINE.test(line));
}
