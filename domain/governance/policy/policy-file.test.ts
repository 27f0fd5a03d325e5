import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { loadPolicyFile } from './policy-file.js';

const dir = mkdtempSync(join(tmpdir(), 'stagegraph-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(path: string): Promise<StagegraphError> {
  const error = await loadPolicyFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StagegraphError);
  expect((error as StagegraphError).code).toBe('POLICY_INVALID');
  return error as StagegraphError;
}

const EXAMPLE = `
version: 1
nonInteractive: FAIL
defaults: { HIGH: ASK, CRITICAL: DENY }
extraDestructiveWords: [archive]
rules:
  - id: no-payments
    description: Never pay in the billing app
    session: { executable: "**/billing*" }
    target: { role: [button, link], name: "/pay|purchase/i" }
    decision: DENY
  - id: trusted-fixture
    operation: [click, fill]
    session: { main: "**/fixtures/**" }
    decision: ALLOW
  - operation: click
    args: { position: true }
    decision: ASK
    nonInteractive: DENY
`;

describe('policy file', () => {
  it('loads YAML into a policy with its origin', async () => {
    const path = file('policy.yaml', EXAMPLE);
    const policy = await loadPolicyFile(path);
    expect(policy.rules.map((rule) => rule.id)).toEqual(['no-payments', 'trusted-fixture', 'rule-2']);
    expect(policy.origin.path).toBe(path);
    expect(policy.origin.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(policy.destructiveWords).toContain('archive');
  });

  it('loads JSON by extension', async () => {
    const policy = await loadPolicyFile(
      file('p.json', '{"rules":[{"operation":"eval","decision":"ALLOW"}]}'),
    );
    expect(policy.rules[0]).toMatchObject({ id: 'rule-0', decision: 'ALLOW' });
  });

  it('names the file, the rule index and the field of each mistake', async () => {
    const cases: [string, RegExp, number | null, string][] = [
      [
        'rules:\n  - decision: MAYBE\n',
        /rule 0, rules\[0\]\.decision: must be one of ALLOW, DENY, ASK/,
        0,
        'rules[0].decision',
      ],
      [
        'rules:\n  - decision: ALLOW\n  - operaton: click\n    decision: DENY\n',
        /rules\[1\]\.operaton: unknown field/,
        1,
        'rules[1].operaton',
      ],
      [
        'rules:\n  - decision: DENY\n    target: { name: "/(/" }\n',
        /rules\[0\]\.target\.name: bad pattern/,
        0,
        'rules[0].target.name',
      ],
      [
        'rules:\n  - {id: a, decision: DENY}\n  - {id: a, decision: DENY}\n',
        /already rule 0's id/,
        1,
        'rules[1].id',
      ],
      ['rules:\n  - {id: "default:HIGH", decision: ALLOW}\n', /reserved/, 0, 'rules[0].id'],
      [
        'rules:\n  - decision: DENY\n    target: { kind: [menuItem, window] }\n',
        /rules\[0\]\.target\.kind\[1\]: must be one of element, menuItem, contextMenuItem, tray, program/,
        0,
        'rules[0].target.kind[1]',
      ],
      ['defaults: { SEVERE: DENY }\n', /defaults\.SEVERE: unknown field/, null, 'defaults.SEVERE'],
      ['rules:\n  - operation: click\n', /rules\[0\]\.decision: is required/, 0, 'rules[0].decision'],
      ['rules: [\n', /not valid YAML/, null, ''],
      [
        'redact:\n  - { name: Badge, pattern: "/B\\\\d+/" }\n',
        /redact\[0\]\.name: lower-case/,
        null,
        'redact[0].name',
      ],
      [
        'redact:\n  - { name: badge, pattern: "B*" }\n',
        /redact\[0\]\.pattern: a regular expression literal/,
        null,
        'redact[0].pattern',
      ],
      [
        'redact:\n  - { name: badge, pattern: "/(/" }\n',
        /redact\[0\]\.pattern: Invalid regular expression/,
        null,
        'redact[0].pattern',
      ],
      [
        'redact:\n  - { name: badge, pattern: "/b/", mask: true }\n',
        /redact\[0\]\.mask: unknown field/,
        null,
        'redact[0].mask',
      ],
    ];
    for (const [text, message, ruleIndex, field] of cases) {
      const path = file('bad.yaml', text);
      const error = await failure(path);
      expect(error.message, text).toMatch(message);
      expect(error.message.startsWith(`${path}: `)).toBe(true);
      if (field) expect(error.details).toMatchObject({ file: path, ruleIndex, field });
    }
  });

  it("compiles the file's redaction patterns global, whatever flags it gave", async () => {
    const policy = await loadPolicyFile(
      file('redact.yaml', 'redact:\n  - { name: badge, pattern: "/emp-\\\\d{3}/i" }\n'),
    );
    expect(policy.redactionPatterns).toEqual([{ name: 'badge', pattern: /emp-\d{3}/gi }]);
  });

  it('a missing file is POLICY_INVALID naming it', async () => {
    expect((await failure(join(dir, 'absent.yaml'))).message).toMatch(/absent\.yaml: cannot read/);
  });
});
