import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { CONFIDENCES } from '../../interaction/selector/confidence.js';
import { ACTED_ON_KINDS } from '../request/governed-request.js';
import { Policy } from './policy.js';
import {
  DECISIONS,
  NON_INTERACTIVE_MODES,
  type PolicySpec,
  PolicySpecError,
  REVEAL_MODES,
  type RedactSpec,
  type RuleSpec,
} from './policy-spec.js';
import { RISK_TIERS } from './risk.js';

/** A policy is a page of rules; anything bigger is a mistake (a log pasted in), not a policy. */
export const MAX_POLICY_FILE_BYTES = 1024 * 1024;
/** First match wins, so thousands of rules are unreviewable and slow every decision. */
export const MAX_POLICY_RULES = 1_000;

const TOP_LEVEL_KEYS = [
  'version',
  'defaults',
  'nonInteractive',
  'reveal',
  'destructiveWords',
  'extraDestructiveWords',
  'rules',
  'redact',
];
const REDACT_KEYS = ['name', 'pattern'];
/** Every one runs over every value redacted: a handful is what a policy needs. */
export const MAX_REDACT_PATTERNS = 50;
const REDACT_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
const RULE_KEYS = [
  'id',
  'description',
  'operation',
  'kind',
  'risk',
  'session',
  'target',
  'args',
  'decision',
  'nonInteractive',
];
const SESSION_KEYS = ['executable', 'main', 'windowTitle', 'windowUrl'];
const TARGET_KEYS = ['kind', 'role', 'name', 'path', 'selector', 'confidence', 'confidenceBelow'];

/** Reads, parses, validates and compiles a policy file; every failure is POLICY_INVALID naming file and field. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new StagegraphError(
      'POLICY_INVALID',
      `${path}: cannot read the policy file (${(error as Error).message}).`,
      {
        details: { file: path },
      },
    );
  }
  return parsePolicy(bytes, path);
}

/** JSON by `.json` extension, YAML otherwise (YAML also reads JSON, but JSON's errors are sharper). */
export function parsePolicy(bytes: Buffer, path: string): Policy {
  const fail = (message: string, field: string | null = null, ruleIndex: number | null = null): never => {
    throw new StagegraphError('POLICY_INVALID', `${path}: ${message}`, {
      details: { file: path, ruleIndex, field },
    });
  };
  if (bytes.length > MAX_POLICY_FILE_BYTES) fail(`the file is larger than ${MAX_POLICY_FILE_BYTES} bytes.`);
  let raw: unknown;
  try {
    const text = bytes.toString('utf8');
    raw =
      extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    fail(
      `not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  try {
    const spec = validatePolicySpec(raw ?? {});
    return new Policy(spec, {
      path,
      loadedAt: new Date(),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  } catch (error) {
    if (!(error instanceof PolicySpecError)) throw error;
    const where = error.ruleIndex === null ? '' : `rule ${error.ruleIndex}, `;
    return fail(`${where}${error.message}`, error.field, error.ruleIndex);
  }
}

/** Checks the parsed document's shape; unknown keys are errors, since a typo would silently widen a rule. */
export function validatePolicySpec(raw: unknown): PolicySpec {
  const top = record(raw, '(top level)');
  onlyKeys(top, TOP_LEVEL_KEYS, '(top level)');
  if (top.version !== undefined && top.version !== 1) throw new PolicySpecError('version', 'must be 1');
  const defaults = top.defaults === undefined ? undefined : record(top.defaults, 'defaults');
  if (defaults) {
    onlyKeys(defaults, RISK_TIERS, 'defaults');
    for (const [tier, decision] of Object.entries(defaults)) oneOf(decision, DECISIONS, `defaults.${tier}`);
  }
  const rules = top.rules === undefined ? [] : list(top.rules, 'rules');
  if (rules.length > MAX_POLICY_RULES)
    throw new PolicySpecError('rules', `at most ${MAX_POLICY_RULES} rules`);
  const specs = rules.map((rule, index) => validateRule(rule, `rules[${index}]`));
  const ids = new Map<string, number>();
  specs.forEach((rule, index) => {
    if (rule.id === undefined) return;
    // Verdicts name per-tier defaults `default:<TIER>`; a rule must not pass for one in the audit trail.
    if (rule.id.startsWith('default:'))
      throw new PolicySpecError(`rules[${index}].id`, '"default:" is reserved for the per-tier defaults');
    const first = ids.get(rule.id);
    if (first !== undefined)
      throw new PolicySpecError(`rules[${index}].id`, `"${rule.id}" is already rule ${first}'s id`);
    ids.set(rule.id, index);
  });
  return {
    defaults: defaults as PolicySpec['defaults'],
    nonInteractive: optional(top.nonInteractive, (v) => oneOf(v, NON_INTERACTIVE_MODES, 'nonInteractive')),
    reveal: optional(top.reveal, (v) => oneOf(v, REVEAL_MODES, 'reveal')),
    destructiveWords: optional(top.destructiveWords, (v) => strings(v, 'destructiveWords')),
    extraDestructiveWords: optional(top.extraDestructiveWords, (v) => strings(v, 'extraDestructiveWords')),
    rules: specs,
    redact: optional(top.redact, (v) => redactSpecs(v)),
  };
}

function redactSpecs(raw: unknown): RedactSpec[] {
  const entries = list(raw, 'redact');
  if (entries.length > MAX_REDACT_PATTERNS)
    throw new PolicySpecError('redact', `at most ${MAX_REDACT_PATTERNS} patterns`);
  return entries.map((entry, index) => {
    const at = `redact[${index}]`;
    const spec = record(entry, at);
    onlyKeys(spec, REDACT_KEYS, at);
    const name = text(spec.name, `${at}.name`);
    if (!REDACT_NAME.test(name))
      throw new PolicySpecError(`${at}.name`, 'lower-case letters, digits and dashes, at most 32');
    // Compiled (and refused when it is not a `/source/flags` literal) with the policy: compileRedaction.
    return { name, pattern: text(spec.pattern, `${at}.pattern`) };
  });
}

function validateRule(raw: unknown, at: string): RuleSpec {
  const rule = record(raw, at);
  onlyKeys(rule, RULE_KEYS, at);
  if (rule.decision === undefined)
    throw new PolicySpecError(`${at}.decision`, `is required (one of ${DECISIONS.join(', ')})`);
  const session = optional(rule.session, (v) => {
    const value = record(v, `${at}.session`);
    onlyKeys(value, SESSION_KEYS, `${at}.session`);
    for (const [key, pattern] of Object.entries(value)) text(pattern, `${at}.session.${key}`);
    return value as RuleSpec['session'];
  });
  const target = optional(rule.target, (v) => {
    const value = record(v, `${at}.target`);
    onlyKeys(value, TARGET_KEYS, `${at}.target`);
    return {
      kind: optional(value.kind, (kind) =>
        oneOrMany(kind, `${at}.target.kind`).map((one, i) =>
          oneOf(one, ACTED_ON_KINDS, `${at}.target.kind[${i}]`),
        ),
      ),
      role: optional(value.role, (role) => oneOrMany(role, `${at}.target.role`)),
      path: optional(value.path, (path) => text(path, `${at}.target.path`)),
      name: optional(value.name, (name) => text(name, `${at}.target.name`)),
      selector: optional(value.selector, (selector) => text(selector, `${at}.target.selector`)),
      confidence: optional(value.confidence, (confidence) =>
        oneOrMany(confidence, `${at}.target.confidence`).map((one, i) =>
          oneOf(one, CONFIDENCES, `${at}.target.confidence[${i}]`),
        ),
      ),
      confidenceBelow: optional(value.confidenceBelow, (below) =>
        oneOf(below, CONFIDENCES, `${at}.target.confidenceBelow`),
      ),
    };
  });
  const args = optional(rule.args, (v) => {
    const value = record(v, `${at}.args`);
    for (const [path, expected] of Object.entries(value)) {
      if (path === '' || path.split('.').includes(''))
        throw new PolicySpecError(`${at}.args`, `"${path}" is not a dot path`);
      if (typeof expected !== 'boolean') text(expected, `${at}.args.${path}`);
    }
    return value as Record<string, string | boolean>;
  });
  return {
    id: optional(rule.id, (v) => text(v, `${at}.id`)),
    description: optional(rule.description, (v) => text(v, `${at}.description`)),
    operation: optional(rule.operation, (v) => oneOrMany(v, `${at}.operation`)),
    kind: optional(rule.kind, (v) => oneOf(v, ['query', 'mutation'] as const, `${at}.kind`)),
    risk: optional(rule.risk, (v) =>
      oneOrMany(v, `${at}.risk`).map((tier, i) => oneOf(tier, RISK_TIERS, `${at}.risk[${i}]`)),
    ),
    session,
    target,
    args,
    decision: oneOf(rule.decision, DECISIONS, `${at}.decision`),
    nonInteractive: optional(rule.nonInteractive, (v) =>
      oneOf(v, NON_INTERACTIVE_MODES, `${at}.nonInteractive`),
    ),
  };
}

function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : check(value);
}

function record(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PolicySpecError(at, 'must be a mapping');
  return value as Record<string, unknown>;
}

function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new PolicySpecError(at, 'must be a list');
  return value;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new PolicySpecError(
        at === '(top level)' ? key : `${at}.${key}`,
        `unknown field (expected one of ${allowed.join(', ')})`,
      );
  }
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string' || value === '') throw new PolicySpecError(at, 'must be a non-empty string');
  return value;
}

function strings(value: unknown, at: string): string[] {
  return list(value, at).map((item, i) => text(item, `${at}[${i}]`));
}

/** A single string is shorthand for a list of one. */
function oneOrMany(value: unknown, at: string): string[] {
  return Array.isArray(value) ? strings(value, at) : [text(value, at)];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], at: string): T {
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new PolicySpecError(at, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}
