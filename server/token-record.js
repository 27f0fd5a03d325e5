// The hashed token file: one `sha256:<hex>` line per token. `stagegraph token create` writes it and
// `stagegraph serve --token-file/--approver-token-file/--observer-token-file` reads it. Plain JavaScript,
// so the token command runs without tsx or the server.
//
// Why SHA-256 and not scrypt: a created token is 32 random bytes (256 bits), so no dictionary or
// brute-force search of its hash can succeed however fast the hash is; a slow KDF only protects secrets a
// person chose. And the gateway checks a token on every HTTP request and WebSocket connection: a KDF costing
// tens of milliseconds per check would hand any client a way to burn the gateway's CPU.
import { createHash, randomBytes } from 'node:crypto';

/** Bytes of randomness in a created token: 256 bits, beyond any search of its SHA-256. */
export const TOKEN_BYTES = 32;
export const HASH_PREFIX = 'sha256:';
/** Owner read and write only: a token file readable by group or others is refused at start. */
export const PRIVATE_FILE_MODE = 0o600;
/** The permission bits of group and others. */
const GROUP_AND_OTHERS = 0o077;

/** A fresh token, URL-safe so it fits a header, a query parameter or a shell variable unquoted. */
export function newToken() {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * The digest the gateway compares presented tokens with (the same as ClientDirectory's).
 * @param {string} token
 * @returns {Buffer}
 */
export function tokenDigest(token) {
  return createHash('sha256').update(token).digest();
}

/**
 * The line a token file holds for `token`.
 * @param {string} token
 */
export function hashLine(token) {
  return `${HASH_PREFIX}${tokenDigest(token).toString('hex')}`;
}

/**
 * The digest of a `sha256:<64 hex>` line, or undefined when the line is something else.
 * @param {string} line
 * @returns {Buffer | undefined}
 */
export function parseHashLine(line) {
  const match = /^sha256:([0-9a-fA-F]{64})$/.exec(line);
  return match?.[1] === undefined ? undefined : Buffer.from(match[1], 'hex');
}

/**
 * Whether a file's mode lets anyone but its owner read or write it.
 * @param {number} mode
 */
export function openToOthers(mode) {
  return (mode & GROUP_AND_OTHERS) !== 0;
}
