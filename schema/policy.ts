import { explainOperation } from '../resolvers/governance/explain.js';
import {
  ACTED_ON_KINDS,
  type SessionInfo,
  type TargetInfo,
} from '../resolvers/governance/governed-request.js';
import type { Policy, PolicyOrigin, RuleRef, RuleView } from '../resolvers/governance/policy.js';
import { DECISIONS, NON_INTERACTIVE_MODES } from '../resolvers/governance/policy-spec.js';
import { RISK_TIERS } from '../resolvers/governance/risk.js';
import { builder } from './builder.js';
import { actedOnOf, governanceOf, sessionArgumentOf } from './governance.js';
import { TargetInput } from './target.js';
import { BoundsRef } from './window.js';

export const DecisionEnum = builder.enumType('PolicyDecision', { values: DECISIONS });
export const RiskTierEnum = builder.enumType('RiskTier', {
  description:
    'LOW reads; MEDIUM actions; HIGH actions on destructively named targets; CRITICAL eval and coordinates.',
  values: RISK_TIERS,
});
const NonInteractiveEnum = builder.enumType('NonInteractiveMode', {
  description: 'What ASK becomes when no approver is watching: FAIL (APPROVAL_UNAVAILABLE), DENY or ALLOW.',
  values: NON_INTERACTIVE_MODES,
});

export const RuleRefRef = builder.objectRef<RuleRef>('PolicyRuleRef').implement({
  description: 'The rule behind a decision; `index` is null for a per-tier default (`default:<TIER>`).',
  fields: (t) => ({
    id: t.exposeID('id'),
    index: t.exposeInt('index', { nullable: true }),
    description: t.exposeString('description'),
  }),
});

const RuleRefView = builder.objectRef<RuleView>('PolicyRule').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    index: t.exposeInt('index'),
    description: t.exposeString('description'),
    decision: t.field({ type: DecisionEnum, resolve: (rule) => rule.decision }),
    hits: t.exposeInt('hits', { description: 'Decisions this rule made since the policy was loaded.' }),
  }),
});

const OriginRef = builder.objectRef<PolicyOrigin>('PolicyOrigin').implement({
  fields: (t) => ({
    path: t.exposeString('path', { nullable: true, description: 'Null for the built-in policy.' }),
    loadedAt: t.field({ type: 'DateTime', resolve: (origin) => origin.loadedAt }),
    sha256: t.exposeString('sha256', {
      nullable: true,
      description: "The file's SHA-256, as audit records name it.",
    }),
  }),
});

const TierDefaultRef = builder
  .objectRef<{ risk: (typeof RISK_TIERS)[number]; decision: (typeof DECISIONS)[number] }>('RiskDefault')
  .implement({
    fields: (t) => ({
      risk: t.field({ type: RiskTierEnum, resolve: (entry) => entry.risk }),
      decision: t.field({ type: DecisionEnum, resolve: (entry) => entry.decision }),
    }),
  });

const PolicyRef = builder.objectRef<Policy>('Policy').implement({
  description: 'The policy in force: rules in order (first match wins), then a default per risk tier.',
  fields: (t) => ({
    origin: t.field({ type: OriginRef, resolve: (policy) => policy.origin }),
    rules: t.field({ type: [RuleRefView], resolve: (policy) => policy.rules }),
    defaults: t.field({
      type: [TierDefaultRef],
      resolve: (policy) => RISK_TIERS.map((risk) => ({ risk, decision: policy.defaults[risk] })),
    }),
    nonInteractive: t.field({ type: NonInteractiveEnum, resolve: (policy) => policy.nonInteractive }),
    destructiveWords: t.exposeStringList('destructiveWords'),
  }),
});

export const GovernedSessionRef = builder.objectRef<SessionInfo>('GovernedSession').implement({
  description: 'The session an operation acts on, as the policy sees it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    executablePath: t.exposeString('executablePath', { nullable: true }),
    main: t.exposeString('main', { nullable: true }),
    windowTitle: t.exposeString('windowTitle', { nullable: true }),
    windowUrl: t.exposeString('windowUrl', { nullable: true }),
  }),
});

const ActedOnKindEnum = builder.enumType('ActedOnKind', {
  description: 'What kind of thing an operation acts on.',
  values: Object.fromEntries(
    ACTED_ON_KINDS.map((kind) => [kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase(), { value: kind }]),
  ) as Record<string, { value: (typeof ACTED_ON_KINDS)[number] }>,
});

export const GovernedTargetRef = builder.objectRef<TargetInfo>('GovernedTarget').implement({
  description:
    'What an operation will act on — a page element, menu item, context-menu item, tray or program — resolved before deciding (never just the locator).',
  fields: (t) => ({
    kind: t.field({ type: ActedOnKindEnum, resolve: (target) => target.kind }),
    role: t.exposeString('role'),
    name: t.exposeString('name', {
      description: 'Accessible name, menu label, tray tooltip, or the executable of a program.',
    }),
    path: t.stringList({
      nullable: true,
      description: 'Menu labels from the top, [tray id], or [command, ...arguments].',
      resolve: (target) => (target.path ? [...target.path] : null),
    }),
    windowId: t.exposeID('windowId', { nullable: true }),
    selector: t.exposeString('selector', { nullable: true }),
    bbox: t.field({ type: BoundsRef, nullable: true, resolve: (target) => target.bbox ?? null }),
    inputType: t.exposeString('inputType', { nullable: true }),
    previewError: t.exposeString('previewError', {
      nullable: true,
      description:
        'Why it could not be read before acting; it is then described from the arguments (the path asked for).',
    }),
  }),
});

const ExplanationRef = builder
  .objectRef<Awaited<ReturnType<typeof explainOperation>>>('PolicyExplanation')
  .implement({
    fields: (t) => ({
      decision: t.field({ type: DecisionEnum, resolve: (e) => e.decision }),
      rule: t.field({ type: RuleRefRef, resolve: (e) => e.rule }),
      risk: t.field({ type: RiskTierEnum, resolve: (e) => e.risk }),
      reasons: t.exposeStringList('reasons'),
      skipped: t.exposeStringList('skipped', { description: 'Why each earlier rule did not match.' }),
      nonInteractive: t.field({ type: NonInteractiveEnum, resolve: (e) => e.nonInteractive }),
      session: t.field({ type: GovernedSessionRef, nullable: true, resolve: (e) => e.session }),
      target: t.field({ type: GovernedTargetRef, nullable: true, resolve: (e) => e.target }),
    }),
  });

builder.queryFields((t) => ({
  policy: t.field({
    type: PolicyRef,
    description:
      'The active policy: its rules with ids and hit counts, the per-tier defaults, where it came from.',
    resolve: (_root, _args, context) => governanceOf(context).policy,
  }),
  explainPolicy: t.field({
    type: ExplanationRef,
    description:
      'What the policy would decide for an operation now, and why, resolving its target without acting; counts no hit, writes no audit record.',
    args: {
      operation: t.arg.string({ required: true, description: 'A field name, e.g. `click`.' }),
      args: t.arg.string({ required: false, description: 'Its other arguments as a JSON object.' }),
      session: t.arg.id({ required: false }),
      window: t.arg.id({ required: false }),
      target: t.arg({ type: TargetInput, required: false }),
    },
    resolve: (_root, args, context, info) => {
      const mutation = info.schema.getMutationType()?.getFields()[args.operation];
      const read = info.schema.getQueryType()?.getFields()[args.operation];
      return explainOperation(governanceOf(context), {
        operation: args.operation,
        // Names this server does not serve (yet), eval among them, are weighed as the actions they would be.
        kind: read && !mutation ? 'query' : 'mutation',
        argsJson: args.args ?? null,
        session: args.session == null ? null : String(args.session),
        window: args.window == null ? null : String(args.window),
        target: args.target ?? null,
        sessionArgument: mutation ? sessionArgumentOf(mutation) : 'session',
        actsOn: mutation ? actedOnOf(mutation) : args.target ? 'element' : null,
      });
    },
  }),
}));
