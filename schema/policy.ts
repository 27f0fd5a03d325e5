import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  MAX_APPROVAL_TIMEOUT_MS,
} from '../domain/governance/approvals/approval-broker.js';
import { explainOperation, unservedOperation } from '../domain/governance/explain.js';
import type { Policy, PolicyOrigin, RuleRef, RuleView } from '../domain/governance/policy/policy.js';
import {
  BUILT_IN_DEFAULTS,
  DECISIONS,
  type Decision,
  NON_INTERACTIVE_MODES,
  type NonInteractiveMode,
} from '../domain/governance/policy/policy-spec.js';
import {
  DEFAULT_DESTRUCTIVE_WORDS,
  DEFAULT_EVAL_OPERATIONS,
  DEFAULT_RAW_POINTER_OPERATIONS,
  DEFAULT_TARGETED_ACTIONS,
  RISK_TIERS,
  type RiskTier,
} from '../domain/governance/policy/risk.js';
import { TARGET_PREVIEW_MAX_WAIT_MS } from '../domain/governance/preview/target-preview.js';
import {
  ACTED_ON_KINDS,
  type ActedOnKind,
  type SessionInfo,
  type TargetInfo,
} from '../domain/governance/request/governed-request.js';
import { builder } from './builder.js';
import { governanceOf } from './context.js';
import { governedOperationOf } from './gates/declared-governance.js';
import { TargetConfidenceEnum, TargetInput } from './target.js';
import { BoundsRef } from './window.js';

const list = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');

const DECISION_DESCRIPTIONS: Record<Decision, string> = {
  ALLOW: 'The operation goes ahead without asking anyone.',
  DENY: 'The operation is refused before it acts and fails with POLICY_DENIED, naming the rule.',
  ASK: `The operation waits for an approver's \`approve\` or \`deny\` (up to the server's approval timeout, default ${DEFAULT_APPROVAL_TIMEOUT_MS} ms, at most ${MAX_APPROVAL_TIMEOUT_MS} ms; then APPROVAL_TIMEOUT). With no approver subscribed to \`approvalRequests\`, the nonInteractive mode settles it at once; a SESSION approval already given for the same request lets it through without asking.`,
};

export const DecisionEnum = builder.enumType('PolicyDecision', {
  description:
    'What the policy decides for a mutation: the first matching rule decides, else the default for its risk tier.',
  values: Object.fromEntries(
    DECISIONS.map((decision) => [
      decision,
      { value: decision, description: DECISION_DESCRIPTIONS[decision] },
    ]),
  ) as Record<Decision, { value: Decision; description: string }>,
});

const RISK_DESCRIPTIONS: Record<RiskTier, string> = {
  LOW: 'Reads: Query fields as explainPolicy weighs them (reads themselves are not put to the policy), and approve and deny as the audit records them.',
  MEDIUM: 'Any other mutation: it changes the app, but nothing marks it as dangerous.',
  HIGH: `An action that uses what it acts on — ${list(DEFAULT_TARGETED_ACTIONS)} on a page element, invoking a menu or context-menu item, clicking a tray — when a word of the target's name starts with one of the policy's \`destructiveWords\`.`,
  CRITICAL: `Arbitrary code (${list(DEFAULT_EVAL_OPERATIONS)}), pointer operations at screen coordinates (${list(DEFAULT_RAW_POINTER_OPERATIONS)}), and \`click\`, \`dblclick\` or \`tap\` with a \`position\`.`,
};

export const RiskTierEnum = builder.enumType('RiskTier', {
  description: `How dangerous an operation is, scored on the resolved target before the rules run; rules can match on it, and with no matching rule it picks the decision (built in: ${RISK_TIERS.map((tier) => `${tier} ${BUILT_IN_DEFAULTS[tier]}`).join(', ')}).`,
  values: Object.fromEntries(
    RISK_TIERS.map((tier) => [tier, { value: tier, description: RISK_DESCRIPTIONS[tier] }]),
  ) as Record<RiskTier, { value: RiskTier; description: string }>,
});

const NON_INTERACTIVE_DESCRIPTIONS: Record<NonInteractiveMode, string> = {
  FAIL: 'The operation fails with APPROVAL_UNAVAILABLE, so an unattended agent learns it needs a human (the built-in mode).',
  DENY: 'The operation is refused at once, decided by `auto-deny`: it fails with POLICY_DENIED.',
  ALLOW: 'The operation goes ahead at once, approved by `auto-allow`.',
};

const NonInteractiveEnum = builder.enumType('NonInteractiveMode', {
  description: 'What ASK becomes when no approver is watching: FAIL (APPROVAL_UNAVAILABLE), DENY or ALLOW.',
  values: Object.fromEntries(
    NON_INTERACTIVE_MODES.map((mode) => [
      mode,
      { value: mode, description: NON_INTERACTIVE_DESCRIPTIONS[mode] },
    ]),
  ) as Record<NonInteractiveMode, { value: NonInteractiveMode; description: string }>,
});

export const RuleRefRef = builder.objectRef<RuleRef>('PolicyRuleRef').implement({
  description: 'The rule behind a decision; `index` is null for a per-tier default (`default:<TIER>`).',
  fields: (t) => ({
    id: t.exposeID('id', {
      description:
        "The rule's `id` in the policy file (else `rule-<index>`), `default:<TIER>` for a tier default, or `built-in:approver-answer` for approve and deny.",
    }),
    index: t.exposeInt('index', {
      nullable: true,
      description: 'Its 0-based position in `Policy.rules`; null for a tier default or a built-in rule.',
    }),
    description: t.exposeString('description', {
      description:
        "The rule's `description` in the policy file, else one generated from its matchers; for a default, which tier's default applied.",
    }),
  }),
});

const RuleRefView = builder.objectRef<RuleView>('PolicyRule').implement({
  description:
    'One rule of the active policy. It matches when every matcher it has matches (operation, kind, risk, session, target, arguments).',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The `id` from the policy file, else `rule-<index>`; decisions and audit records name it.',
    }),
    index: t.exposeInt('index', { description: '0-based position: rules are tried in this order.' }),
    description: t.exposeString('description', {
      description: 'The `description` from the policy file, else one generated from its matchers.',
    }),
    decision: t.field({
      type: DecisionEnum,
      description: 'What it decides when it is the first rule to match.',
      resolve: (rule) => rule.decision,
    }),
    hits: t.exposeInt('hits', { description: 'Decisions this rule made since the policy was loaded.' }),
  }),
});

const OriginRef = builder.objectRef<PolicyOrigin>('PolicyOrigin').implement({
  description:
    'Where the active policy came from: its file (reloaded when the file changes; a bad edit is refused and the previous policy stays), or the built-in policy.',
  fields: (t) => ({
    path: t.exposeString('path', {
      nullable: true,
      description: 'The policy file, absolute; null for the built-in policy.',
    }),
    loadedAt: t.field({
      type: 'DateTime',
      description: 'When this policy was loaded: at start-up, or when a changed file was reloaded.',
      resolve: (origin) => origin.loadedAt,
    }),
    sha256: t.exposeString('sha256', {
      nullable: true,
      description: "The file's SHA-256, as audit records name it.",
    }),
  }),
});

const TierDefaultRef = builder
  .objectRef<{ risk: (typeof RISK_TIERS)[number]; decision: (typeof DECISIONS)[number] }>('RiskDefault')
  .implement({
    description: 'The decision for one risk tier when no rule matches.',
    fields: (t) => ({
      risk: t.field({ type: RiskTierEnum, description: 'The tier.', resolve: (entry) => entry.risk }),
      decision: t.field({
        type: DecisionEnum,
        description: `Its decision: the policy file's \`defaults\`, else built in (${RISK_TIERS.map((tier) => `${tier} ${BUILT_IN_DEFAULTS[tier]}`).join(', ')}).`,
        resolve: (entry) => entry.decision,
      }),
    }),
  });

const PolicyRef = builder.objectRef<Policy>('Policy').implement({
  description: 'The policy in force: rules in order (first match wins), then a default per risk tier.',
  fields: (t) => ({
    origin: t.field({
      type: OriginRef,
      description: 'The file it was loaded from, when, and its SHA-256.',
      resolve: (policy) => policy.origin,
    }),
    rules: t.field({
      type: [RuleRefView],
      description: 'In evaluation order; empty for the built-in policy.',
      resolve: (policy) => policy.rules,
    }),
    defaults: t.field({
      type: [TierDefaultRef],
      description: 'One decision per risk tier, LOW to CRITICAL, for operations no rule matches.',
      resolve: (policy) => RISK_TIERS.map((risk) => ({ risk, decision: policy.defaults[risk] })),
    }),
    nonInteractive: t.field({
      type: NonInteractiveEnum,
      description:
        'What ASK becomes when no approver is watching, unless the deciding rule sets its own; FAIL unless the file says otherwise.',
      resolve: (policy) => policy.nonInteractive,
    }),
    destructiveWords: t.exposeStringList('destructiveWords', {
      description: `A word of a target's name that starts with one of these (case-insensitive: \`Delete\`, \`Deleting\`, not \`undeleted\`) makes an action on it HIGH risk. Built in: ${DEFAULT_DESTRUCTIVE_WORDS.length} words (${DEFAULT_DESTRUCTIVE_WORDS.slice(0, 6).join(', ')}, …), replaced by the file's \`destructiveWords\` and extended by its \`extraDestructiveWords\`.`,
    }),
  }),
});

export const GovernedSessionRef = builder.objectRef<SessionInfo>('GovernedSession').implement({
  description: 'The session an operation acts on, as the policy sees it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The session id, as `Session.id`.' }),
    executablePath: t.exposeString('executablePath', {
      nullable: true,
      description:
        "The executable it runs: the launch's `executablePath`, else the path the app reports; null when unknown.",
    }),
    main: t.exposeString('main', {
      nullable: true,
      description: "The app's main script or folder as given to `launch`; null for other sessions.",
    }),
    windowTitle: t.exposeString('windowTitle', {
      nullable: true,
      description:
        'Title of the window the operation acts in; null when it resolves no window (menus, trays, programs, or the window could not be found).',
    }),
    windowUrl: t.exposeString('windowUrl', {
      nullable: true,
      description: 'URL of that window; null when `windowTitle` is.',
    }),
  }),
});

const ACTED_ON_DESCRIPTIONS: Record<ActedOnKind, string> = {
  element: 'A page element named by a `target` argument (click, fill, …), resolved in its window.',
  menuItem: 'An item of the application menu, by its `path` of labels (invokeMenuItem).',
  contextMenuItem: 'An item of the context menu open now, by its `path` (invokeContextMenuItem).',
  tray: 'A tray icon, by its id (invokeTray); only click events count as using it.',
  program: 'The program launch or launchCommand will start, or the process inject will enter.',
  location:
    'Where navigate takes a window: its name is the URL it will show (for BACK and FORWARD, the history entry), its path the URL it leaves and that one.',
};

const ActedOnKindEnum = builder.enumType('ActedOnKind', {
  description: 'What kind of thing an operation acts on.',
  values: Object.fromEntries(
    ACTED_ON_KINDS.map((kind) => [
      kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase(),
      { value: kind, description: ACTED_ON_DESCRIPTIONS[kind] },
    ]),
  ) as Record<string, { value: ActedOnKind; description: string }>,
});

export const GovernedTargetRef = builder.objectRef<TargetInfo>('GovernedTarget').implement({
  description:
    'What an operation will act on — a page element, menu item, context-menu item, tray, program or location — resolved before deciding (never just the locator).',
  fields: (t) => ({
    kind: t.field({
      type: ActedOnKindEnum,
      description: 'What kind of thing it is.',
      resolve: (target) => target.kind,
    }),
    role: t.exposeString('role', {
      description:
        "The element's accessible role (`unresolved` when it was not found and the target named no role), the menu item's role (`menuitem`, `menuitemcheckbox`, …), `tray`, `program` or `location`.",
    }),
    name: t.exposeString('name', {
      description:
        'Accessible name, menu label, tray tooltip, the executable of a program, or the URL a navigation goes to.',
    }),
    path: t.stringList({
      nullable: true,
      description:
        'Menu labels from the top, [tray id], [command, ...arguments], [the URL a navigation leaves, the URL it goes to], [the AT-SPI object path] of a desktop element, or, for a page element put to an approver, its ancestors from the outermost down to its parent as `role "name"` (at most 12, names cut at 80 characters), compared again after the answer.',
      resolve: (target) => (target.path ? [...target.path] : null),
    }),
    windowId: t.exposeID('windowId', {
      nullable: true,
      description:
        'The window the element, the open context menu or the navigation is in; null for application menus, trays, programs, and targets whose window could not be resolved.',
    }),
    selector: t.exposeString('selector', {
      nullable: true,
      description:
        'The CSS selector the target gave, or `[data-testid="…"]` for a `testId`; null for other locators and other kinds.',
    }),
    bbox: t.field({
      type: BoundsRef,
      nullable: true,
      description:
        "The element's box in CSS pixels of its window's viewport, as found before acting; null when it was not found or is not an element.",
      resolve: (target) => target.bbox ?? null,
    }),
    inputType: t.exposeString('inputType', {
      nullable: true,
      description:
        '`password` when the element is a secret field (text typed into it is then redacted); null otherwise.',
    }),
    previewError: t.exposeString('previewError', {
      nullable: true,
      description:
        'Why it could not be read before acting; it is then described from the arguments (the path asked for).',
    }),
    confidence: t.field({
      type: TargetConfidenceEnum,
      nullable: true,
      description:
        'For page elements: how much to trust that the target names the element meant (what `target.confidence` rules match); for a query the preview could not resolve, the best it could earn. Null when unknown.',
      resolve: (target) => target.confidence ?? null,
    }),
  }),
});

const ExplanationRef = builder
  .objectRef<Awaited<ReturnType<typeof explainOperation>>>('PolicyExplanation')
  .implement({
    description: 'What the policy would decide for one operation now, and why (from explainPolicy).',
    fields: (t) => ({
      decision: t.field({
        type: DecisionEnum,
        description:
          'The decision. An ASK may still go through unasked when a SESSION approval already covers the request.',
        resolve: (e) => e.decision,
      }),
      rule: t.field({
        type: RuleRefRef,
        description: 'The first rule that matched, or the tier default.',
        resolve: (e) => e.rule,
      }),
      risk: t.field({ type: RiskTierEnum, description: 'The scored risk tier.', resolve: (e) => e.risk }),
      reasons: t.exposeStringList('reasons', {
        description: "Why: the risk scorer's reasons, then which rule matched or which tier default applied.",
      }),
      skipped: t.exposeStringList('skipped', {
        description: 'Why each earlier rule did not match, as `rule #<index> <id>: <why>`.',
      }),
      nonInteractive: t.field({
        type: NonInteractiveEnum,
        description:
          "What an ASK would become with no approver watching: the matching rule's own mode, else the policy's.",
        resolve: (e) => e.nonInteractive,
      }),
      session: t.field({
        type: GovernedSessionRef,
        nullable: true,
        description:
          'The session as resolved; null when the operation acts on no session or the one named does not exist.',
        resolve: (e) => e.session,
      }),
      target: t.field({
        type: GovernedTargetRef,
        nullable: true,
        description: 'What it would act on, resolved without acting; null when it names nothing.',
        resolve: (e) => e.target,
      }),
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
      operation: t.arg.string({
        required: true,
        description:
          'A Mutation field name, e.g. `click` (a Query field is weighed as a read); a name this server does not serve, such as `evalMain` without --allow-eval, is weighed as a mutation.',
      }),
      args: t.arg.string({
        required: false,
        description:
          'Its other arguments as a JSON object, e.g. `{"position": {"x": 5, "y": 5}}`; BAD_INPUT when not a JSON object. `session`, `window` and `target` below override the same keys here.',
      }),
      session: t.arg.id({
        required: false,
        description:
          'The session it would act on (`session:` on actions, `id:` on stop); omitted: the only live session. An unknown id is not an error here: the explanation has no session.',
      }),
      window: t.arg.id({
        required: false,
        description: "The window it would act in; omitted: the target ref's window, else the active window.",
      }),
      target: t.arg({
        type: TargetInput,
        required: false,
        description: `The target it would act on: resolved (waiting at most ${TARGET_PREVIEW_MAX_WAIT_MS} ms) but never acted on.`,
      }),
    },
    resolve: (_root, args, context, info) => {
      const mutation = info.schema.getMutationType()?.getFields()[args.operation];
      const read = info.schema.getQueryType()?.getFields()[args.operation];
      return explainOperation(governanceOf(context), {
        // Names this server does not serve (yet), eval among them, are weighed as the actions they would be.
        operation:
          (mutation && governedOperationOf(mutation)) ??
          unservedOperation(args.operation, args.target != null),
        kind: read && !mutation ? 'query' : 'mutation',
        argsJson: args.args ?? null,
        session: args.session == null ? null : String(args.session),
        window: args.window == null ? null : String(args.window),
        target: args.target ?? null,
      });
    },
  }),
}));
