import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GraphqlLink, WireError } from '../graphql-link.js';
import type { Misnamed, SchemaNode } from './arguments.js';
import { bridgeCall, bridgeHint, similarLine } from './bridge-calls.js';

/** What a tool runs with: the link to the gateway and, when the client asked for them, progress reports. */
export interface ToolContext {
  readonly link: GraphqlLink;
  /** Sends `notifications/progress` when the call carried a progressToken; otherwise does nothing. */
  progress(progress: number, message: string): Promise<void>;
}

/**
 * A JSON Schema as MCP lists it: kept by hand, short, since every character is read by the agent; closed
 * (`additionalProperties: false`), since the bridge refuses what it does not declare.
 */
export type InputSchema = SchemaNode & {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties: false;
};

export interface BridgeTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
  /** Keys agents are known to write for one of this tool's, named in the refusal. */
  readonly misnamed?: Misnamed;
  run(args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult>;
}

export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * One error as an agent branches on it: the registry code first, then what to do about it — as bridge
 * calls, unless the agent is writing GraphQL itself (the graphql tool), where the gateway's own words fit.
 */
export function describeError(
  error: WireError,
  label?: string,
  speaks: 'tools' | 'graphql' = 'tools',
): string {
  const { code, nextActions } = error.extensions ?? {};
  const hint = speaks === 'tools' ? bridgeHint(error) : error.extensions?.hint;
  const lines = [`${label ? `${label}: ` : ''}${code ?? 'ERROR'}: ${error.message}`];
  if (hint) lines.push(`hint: ${hint}`);
  const similar = similarLine(error);
  if (similar) lines.push(similar);
  for (const action of nextActions ?? [])
    lines.push(`next: ${speaks === 'tools' ? bridgeCall(action) : action}`);
  return lines.join('\n');
}

/** A tool error (isError) carrying every GraphQL error's code, message, hint and next actions. */
export function failure(errors: readonly WireError[], before = ''): CallToolResult {
  const body = errors.map((error) => describeError(error)).join('\n\n');
  return { isError: true, content: [{ type: 'text', text: before ? `${before}\n${body}` : body }] };
}

/** The `session` and `window` arguments most tools share. */
export const WHERE = {
  session: { type: 'string', description: 'Session id; default: the only one.' },
  window: { type: 'string', description: 'Window id; default: the active one.' },
} as const satisfies Record<string, SchemaNode>;

/** GraphQL's TargetInput, kept once in a tool's `$defs`: `within` nests it as deep as GraphQL does. */
const TARGET_INPUT = {
  type: 'object',
  description: 'GraphQL TargetInput.',
  properties: {
    ref: { type: 'string', description: 'A ref from read, e.g. e12 (best).' },
    role: { type: 'string', description: 'ARIA role, e.g. button, textbox.' },
    name: { type: 'string', description: 'With role: the accessible name.' },
    exact: { type: 'boolean', description: 'Whole-string match of name and text; default true.' },
    testId: { type: 'string', description: 'data-testid.' },
    text: { type: 'string', description: 'Visible text (substring).' },
    selector: { type: 'string', description: 'CSS selector.' },
    query: { type: 'string', description: 'Query selector: role=button name~="sav", A >> B, X right-of Y.' },
    nth: { type: 'integer', minimum: 0, description: 'Zero-based pick when several match.' },
    within: { $ref: '#/$defs/target', description: 'Search only inside this element.' },
  },
  additionalProperties: false,
} as const satisfies SchemaNode;

/** A TargetInput argument, passed to the gateway as given; its tool lists TARGET_DEFS in `$defs`. */
export const TARGET = {
  $ref: '#/$defs/target',
  description: 'The element: ref (best), or role+name, testId, text, selector, query.',
} as const;
export const TARGET_DEFS = { target: TARGET_INPUT } as const;

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
