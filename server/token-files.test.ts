import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClientDirectory } from '../domain/governance/clients/client-identity.js';
import { parseServeArgs } from './config.js';
import { maskSecretArguments, secureServeSecrets } from './secrets.js';
import { hashLine, newToken } from './token-record.js';

const dir = mkdtempSync(join(tmpdir(), 'stagegraph-token-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tokenFile(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('token files', () => {
  it('accepts a hashed approver file and the token whose hash it holds, nothing else', () => {
    const token = newToken();
    const file = tokenFile('approver.tokens', `# a comment\n\n${hashLine(token)}\n`);
    const config = parseServeArgs(['--approver-token-file', file], {});
    const directory = new ClientDirectory(config.hashedTokens ?? []);
    expect(directory.resolve(`Bearer ${token}`, { loopback: true }).role).toBe('approver');
    // The file's own text — what an app reading it finds — is not a token.
    expect(() => directory.resolve(`Bearer ${hashLine(token)}`, { loopback: true })).toThrow(/not one/);
  });

  it('refuses a token file readable by group or others, naming the file and chmod 600', () => {
    const file = tokenFile('open.tokens', `${hashLine(newToken())}\n`, 0o644);
    expect(() => parseServeArgs(['--token-file', file], {})).toThrow(/mode 644.*600 or stricter/);
  });

  it('refuses a clear token in an approver file, takes one in an agent file', () => {
    const clear = tokenFile('clear.tokens', 'a-clear-token-123\n');
    expect(() => parseServeArgs(['--approver-token-file', clear], {})).toThrow(/hashes only/);
    const agent = parseServeArgs([], { STAGEGRAPH_TOKEN_FILE: clear });
    const directory = new ClientDirectory(agent.hashedTokens ?? []);
    expect(directory.resolve('Bearer a-clear-token-123', { loopback: false }).role).toBe('agent');
  });

  it('a non-loopback bind is accepted with an agent token file', () => {
    const file = tokenFile('agent.tokens', `${hashLine(newToken())}\n`);
    expect(parseServeArgs(['--host', '0.0.0.0', '--token-file', file], {}).host).toBe('0.0.0.0');
  });
});

describe('clear tokens given anyway', () => {
  it('are masked on the command line in both forms', () => {
    expect(
      maskSecretArguments(
        ['node', 'x', '--token', 'A1', '--approver-token=B2', '--port', '1'],
        ['--token', '--approver-token'],
      ),
    ).toEqual(['node', 'x', '--token', '***', '--approver-token=***', '--port', '1']);
  });

  it('are kept as digests only, with a warning each, and their variables leave the environment', () => {
    const environment: NodeJS.ProcessEnv = { STAGEGRAPH_APPROVER_TOKEN: 'boss-1', PATH: '/bin' };
    const parsed = parseServeArgs(['--token', 'agent-1'], environment);
    const { config, warnings } = secureServeSecrets(parsed, ['--token', 'agent-1'], environment);
    expect([config.token, config.approverToken]).toEqual([undefined, undefined]);
    expect(JSON.stringify(config)).not.toMatch(/agent-1|boss-1/);
    expect(warnings.join('\n')).toMatch(
      /--token on the command line[\s\S]*STAGEGRAPH_APPROVER_TOKEN stays readable/,
    );
    expect(environment).toEqual({ PATH: '/bin' });
    const directory = new ClientDirectory(config.hashedTokens ?? []);
    expect(directory.resolve('Bearer boss-1', { loopback: true }).role).toBe('approver');
  });
});
