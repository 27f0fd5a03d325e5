// `stagegraph mcp --help`: plain JavaScript so bin/stagegraph.js answers it without loading TypeScript.

export const MCP_USAGE = `Usage: stagegraph mcp [--url <graphql url> [--token <secret>] [--approver-token <secret>]] [serve options]

An MCP server over stdio, for an MCP host (Claude Desktop, an IDE, an agent framework) to start.

  --url <url>                a running gateway's GraphQL URL (http://127.0.0.1:4700/graphql); without it,
                             a gateway is started in this process on a free loopback port (any
                             \`stagegraph serve\` option applies to it)
  --token <secret>           the agent token the bridge acts with (with --url)
  --approver-token <secret>  an approver token: approvals the policy asks about this bridge's operations
                             are put to you through MCP elicitation, and answered as that approver.
                             Without --url the bridge makes its own tokens and always asks you.

Tools: open, read, act, screenshot, menu, graphql. The schema is the resource stagegraph://schema.graphql.
The same tools are served by \`stagegraph serve\` at POST /mcp (streamable HTTP, the /graphql token).
See docs/mcp.md.`;
