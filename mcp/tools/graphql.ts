import type { BridgeTool } from './tool.js';
import { describeError } from './tool.js';

/** The SDL as a resource, for the `graphql` tool's documents. */
export const SCHEMA_RESOURCE_URI = 'stagegraph://schema.graphql';

/** Any document, for everything the other tools do not cover. */
export const graphqlTool: BridgeTool = {
  name: 'graphql',
  description: `Run any Stagegraph GraphQL document (query, mutation) with variables; the schema is the resource ${SCHEMA_RESOURCE_URI}. Select only the fields you need.`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'One GraphQL document.' },
      variables: { type: 'object', description: "The document's variables by name." },
    },
    required: ['query'],
    additionalProperties: false,
  },
  async run(args, { link }) {
    const variables = typeof args.variables === 'object' && args.variables ? args.variables : {};
    const answer = await link.execute(String(args.query ?? ''), variables as Record<string, unknown>);
    const data = JSON.stringify(answer.data ?? null);
    if (!answer.errors?.length) return { content: [{ type: 'text', text: data }] };
    const errors = answer.errors
      .map((error) => describeError(error, error.path?.join('.'), 'graphql'))
      .join('\n\n');
    return { isError: true, content: [{ type: 'text', text: `data: ${data}\n${errors}` }] };
  },
};
