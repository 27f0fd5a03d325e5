import { readFileSync } from 'node:fs';

/** The bridge reports the gateway's own version to MCP clients. */
export const BRIDGE_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
