import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GraphqlLink, WireError } from '../graphql-link.js';

/** What a tool runs with: the link to the gateway and, when the client asked for them, progress reports. */
export interface ToolContext {
  readonly link: GraphqlLink;
  /** Sends `notifications/progress` when the call carried a progressToken; otherwise does nothing. */
  progress(progress: number, message: string): Promise<void>;
}

/** A JSON Schema as MCP lists it: kept by hand, short, since every character is read by the agent. */
export type InputSchema = {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
};

export interface BridgeTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
  run(args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult>;
}

export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** One error as an agent branches on it: the registry code first, then what to do about it. */
export function describeError(error: WireError, label?: string): string {
  const { code, hint, nextActions } = error.extensions ?? {};
  const lines = [`${label ? `${label}: ` : ''}${code ?? 'ERROR'}: ${error.message}`];
  if (hint) lines.push(`hint: ${hint}`);
  for (const action of nextActions ?? []) lines.push(`next: ${action}`);
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
} as const;

/** A TargetInput passed to the gateway as given. */
export const TARGET = {
  type: 'object',
  description: 'ref (best) | role+name | testId | text | selector | query; nth, within.',
} as const;

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
