import { atLeast } from '../../interaction/selector/confidence.js';
import { type GovernedRequest, type JsonValue, PATH_SEPARATOR } from '../request/governed-request.js';
import type { RuleSpec } from './policy-spec.js';
import { PolicySpecError } from './policy-spec.js';
import type { RiskTier } from './risk.js';
import { compilePattern, type PatternFlavour, type TextPattern } from './text-pattern.js';

/** Says why a request does not match, or undefined when it does. */
type Check = (request: GovernedRequest, risk: RiskTier) => string | undefined;

/** A rule compiled once at load: a list of checks, each cheap, stopping at the first that fails. */
export class RuleMatcher {
  readonly spec: RuleSpec;
  readonly id: string;
  readonly index: number;
  readonly description: string;
  #checks: Check[];

  constructor(spec: RuleSpec, index: number) {
    this.spec = spec;
    this.index = index;
    this.id = spec.id ?? `rule-${index}`;
    this.description = spec.description ?? describeRule(spec);
    this.#checks = compileChecks(spec, `rules[${index}]`);
  }

  mismatch(request: GovernedRequest, risk: RiskTier): string | undefined {
    for (const check of this.#checks) {
      const why = check(request, risk);
      if (why !== undefined) return why;
    }
    return undefined;
  }
}

function compileChecks(spec: RuleSpec, at: string): Check[] {
  const checks: Check[] = [];
  const pattern = (source: string, field: string, flavour: PatternFlavour): TextPattern => {
    try {
      return compilePattern(source, flavour);
    } catch (error) {
      throw new PolicySpecError(
        `${at}.${field}`,
        `bad pattern ${JSON.stringify(source)}: ${(error as Error).message}`,
      );
    }
  };
  if (spec.operation) {
    const any = spec.operation.map((source, i) => pattern(source, `operation[${i}]`, 'text'));
    checks.push(({ operation }) =>
      any.some((p) => p.test(operation))
        ? undefined
        : `operation ${operation} is not ${spec.operation!.join(' | ')}`,
    );
  }
  if (spec.kind) {
    const kind = spec.kind;
    checks.push((request) => (request.kind === kind ? undefined : `kind is ${request.kind}, not ${kind}`));
  }
  if (spec.risk) {
    const tiers = new Set(spec.risk);
    checks.push((_, risk) => (tiers.has(risk) ? undefined : `risk ${risk} is not ${[...tiers].join(' | ')}`));
  }
  const session = spec.session ?? {};
  const sessionFields = [
    ['executable', 'executablePath', 'path'],
    ['main', 'main', 'path'],
    ['windowTitle', 'windowTitle', 'text'],
    ['windowUrl', 'windowUrl', 'text'],
  ] as const;
  for (const [field, key, flavour] of sessionFields) {
    const source = session[field];
    if (source === undefined) continue;
    const p = pattern(source, `session.${field}`, flavour);
    checks.push(({ session: info }) => {
      const value = info?.[key];
      if (value == null) return `the session has no ${field}`;
      return p.test(value) ? undefined : `session ${field} ${JSON.stringify(value)} is not ${source}`;
    });
  }
  if (spec.target) {
    const { kind, role, name, path, selector, confidence, confidenceBelow } = spec.target;
    const confidences = confidence && new Set(confidence);
    const kinds = kind && new Set(kind);
    const roles = role?.map((source, i) => pattern(source, `target.role[${i}]`, 'text'));
    const namePattern = name === undefined ? undefined : pattern(name, 'target.name', 'text');
    const pathPattern = path === undefined ? undefined : pattern(path, 'target.path', 'text');
    const selectorPattern = selector === undefined ? undefined : pattern(selector, 'target.selector', 'text');
    checks.push(({ target }) => {
      if (!target) return 'the operation has no target';
      if (kinds && !kinds.has(target.kind)) return `target kind ${target.kind} is not ${kind!.join(' | ')}`;
      if (roles && !roles.some((p) => p.test(target.role)))
        return `target role ${target.role} is not ${role!.join(' | ')}`;
      if (namePattern && !namePattern.test(target.name))
        return `target name ${JSON.stringify(target.name)} is not ${name}`;
      const joined = (target.path ?? []).join(PATH_SEPARATOR);
      if (pathPattern && !pathPattern.test(joined))
        return `target path ${JSON.stringify(joined)} is not ${path}`;
      if (selectorPattern && !selectorPattern.test(target.selector ?? ''))
        return `target selector ${JSON.stringify(target.selector ?? '')} is not ${selector}`;
      if ((confidences || confidenceBelow) && !target.confidence) return 'the target has no known confidence';
      if (confidences && target.confidence && !confidences.has(target.confidence))
        return `target confidence ${target.confidence} is not ${confidence!.join(' | ')}`;
      if (confidenceBelow && target.confidence && atLeast(target.confidence, confidenceBelow))
        return `target confidence ${target.confidence} is not below ${confidenceBelow}`;
      return undefined;
    });
  }
  for (const [path, expected] of Object.entries(spec.args ?? {})) {
    const keys = path.split('.');
    if (typeof expected === 'boolean') {
      checks.push(({ args }) =>
        (valueAt(args, keys) !== undefined) === expected
          ? undefined
          : `argument ${path} is ${expected ? 'absent' : 'present'}`,
      );
      continue;
    }
    const p = pattern(expected, `args.${path}`, 'text');
    checks.push(({ args }) => {
      const value = valueAt(args, keys);
      if (value === undefined) return `argument ${path} is absent`;
      return p.test(typeof value === 'string' ? value : JSON.stringify(value))
        ? undefined
        : `argument ${path} is not ${expected}`;
    });
  }
  return checks;
}

/** Null counts as absent: GraphQL passes omitted nullable arguments as null or not at all. */
function valueAt(value: JsonValue, keys: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = current[key];
  }
  return current === null ? undefined : current;
}

function describeRule(spec: RuleSpec): string {
  const parts: string[] = [];
  if (spec.operation) parts.push(`operation ${spec.operation.join(' | ')}`);
  if (spec.kind) parts.push(`kind ${spec.kind}`);
  if (spec.risk) parts.push(`risk ${spec.risk.join(' | ')}`);
  for (const [field, source] of Object.entries(spec.session ?? {})) parts.push(`session ${field} ${source}`);
  if (spec.target?.kind) parts.push(`target kind ${spec.target.kind.join(' | ')}`);
  if (spec.target?.role) parts.push(`target role ${spec.target.role.join(' | ')}`);
  if (spec.target?.name) parts.push(`target name ${spec.target.name}`);
  if (spec.target?.path) parts.push(`target path ${spec.target.path}`);
  if (spec.target?.selector) parts.push(`target selector ${spec.target.selector}`);
  if (spec.target?.confidence) parts.push(`target confidence ${spec.target.confidence.join(' | ')}`);
  if (spec.target?.confidenceBelow) parts.push(`target confidence below ${spec.target.confidenceBelow}`);
  for (const [path, expected] of Object.entries(spec.args ?? {}))
    parts.push(
      typeof expected === 'boolean'
        ? `argument ${path} ${expected ? 'present' : 'absent'}`
        : `argument ${path} ${expected}`,
    );
  return `${parts.length > 0 ? parts.join(', ') : 'anything'} → ${spec.decision}`;
}
