import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { watchApprovals } from './approvals.js';
import type { GraphqlLink } from './graphql-link.js';
import { actTool } from './tools/act.js';
import { argumentMistake } from './tools/arguments.js';
import { graphqlTool, SCHEMA_RESOURCE_URI } from './tools/graphql.js';
import { menuTool } from './tools/menu.js';
import { openTool } from './tools/open.js';
import { readTool } from './tools/read.js';
import { screenshotTool } from './tools/screenshot.js';
import { sessionsTool } from './tools/sessions.js';
import type { BridgeTool } from './tools/tool.js';

export const TOOLS: readonly BridgeTool[] = [
  openTool,
  readTool,
  actTool,
  screenshotTool,
  menuTool,
  sessionsTool,
  graphqlTool,
];
const SDL_FILE = new URL('../schema.graphql', import.meta.url);

export interface BridgeOptions {
  /** Carries the agent's identity: every tool's operation runs through it. */
  readonly link: GraphqlLink;
  /** With an approver token: approvals of this bridge's operations are asked through elicitation. */
  readonly approver?: GraphqlLink;
  readonly version: string;
  readonly log: (line: string) => void;
}

/** The tools/list answer: names, descriptions and input schemas, as few characters as will do. */
export function listedTools() {
  return TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}

/** One MCP server over the gateway's GraphQL schema; the caller connects it to a transport. */
export function createBridgeServer(options: BridgeOptions): Server {
  const server = new Server(
    { name: 'stagegraph', version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Drive desktop apps: open, then read (outline refs) and act (several steps per call). Use refs from read as targets.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      return { isError: true, content: [{ type: 'text', text: `No tool "${request.params.name}".` }] };
    const args = request.params.arguments ?? {};
    const mistake = argumentMistake(tool.inputSchema, args, tool.misnamed);
    if (mistake) return { isError: true, content: [{ type: 'text', text: `BAD_INPUT: ${mistake}` }] };
    const progressToken = request.params._meta?.progressToken;
    const progress = async (value: number, message: string) => {
      if (progressToken === undefined) return;
      await extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: value, message },
        })
        .catch(() => {});
    };
    try {
      return await tool.run(args, { link: options.link, progress });
    } catch (error) {
      return {
        isError: true,
        content: [
          { type: 'text', text: `The gateway could not be reached or answered badly: ${String(error)}` },
        ],
      };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: SCHEMA_RESOURCE_URI,
        name: 'schema.graphql',
        mimeType: 'application/graphql',
        description: 'The SDL',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== SCHEMA_RESOURCE_URI) throw new Error(`No resource ${request.params.uri}.`);
    return {
      contents: [
        { uri: SCHEMA_RESOURCE_URI, mimeType: 'application/graphql', text: await readFile(SDL_FILE, 'utf8') },
      ],
    };
  });
  const { approver } = options;
  if (approver) {
    let stop: (() => void) | undefined;
    server.oninitialized = () => {
      if (!server.getClientCapabilities()?.elicitation) return;
      void watchApprovals({
        agent: options.link,
        approver,
        elicit: (params) => server.elicitInput(params),
        log: options.log,
      })
        .then((end) => {
          stop = end;
        })
        .catch((error: unknown) => options.log(`approvals will not be asked through MCP: ${String(error)}`));
    };
    server.onclose = () => stop?.();
  }
  return server;
}
