/** The query GraphiQL opens with: a first look that works on any server, with or without sessions. */
export const GRAPHIQL_DEFAULT_QUERY = `# Stagegraph — drive and watch Electron apps through GraphQL.
# Run this with the ▶ button (Ctrl+Enter). Select only the fields you need: that is your token budget.
query FirstLook {
  sessions {
    id
    status
    app { name standIn }
    windows { id title url }
    console(last: 5) { entries { type text } }
  }
  transports { id capabilities { LAUNCH WINDOWS CONSOLE NATIVE_UI } }
}

# Then try a subscription (it streams over graphql-ws):
# subscription { sessionEvents { type sessionId status window { title } } }
`;
