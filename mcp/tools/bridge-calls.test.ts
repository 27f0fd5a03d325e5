import { describe, expect, it } from 'vitest';
import { bridgeCall, bridgeHint } from './bridge-calls.js';

/** Next actions as domain/snapshot/next-actions.ts and domain/sessions/next-actions.ts write them. */
const onWindow = (selection: string) =>
  `query { session(id: "s\\"1") { window(id: "w2") { ${selection} } } }`;

describe("the gateway's next actions as bridge calls", () => {
  it('reads a window with read, and sends everything else through the graphql tool', () => {
    expect(bridgeCall(onWindow('snapshot(interactiveOnly: true) { outline }'))).toBe(
      'read {"session":"s\\"1","window":"w2"}',
    );
    expect(bridgeCall(onWindow('snapshot { id outline }'))).toBe(
      'read {"session":"s\\"1","window":"w2","all":true}',
    );
    expect(bridgeCall(onWindow('node(ref: "e7") { ref role name states bbox { x y width height } }'))).toBe(
      'read {"session":"s\\"1","window":"w2","within":"e7","all":true}',
    );
    const list = 'query { sessions { id status app { name } } }';
    expect(bridgeCall(list)).toBe(`graphql ${JSON.stringify({ query: list })}`);
    const find = onWindow('find(role: "button", name: "Save") { ref role name }');
    expect(bridgeCall(find)).toBe(`graphql ${JSON.stringify({ query: find })}`);
  });

  it('words the session choice as the tool argument, naming the live sessions', () => {
    const ambiguous = {
      message: '2 sessions are live',
      extensions: {
        code: 'SESSION_AMBIGUOUS',
        hint: 'session(id: ...)',
        details: { liveSessions: ['s1', 's2'] },
      },
    };
    expect(bridgeHint(ambiguous)).toBe(
      'Several sessions are open: pass "session" (live: s1, s2) to every call.',
    );
    expect(bridgeHint({ message: 'x', extensions: { code: 'TIMEOUT', hint: 'Wait.' } })).toBe('Wait.');
  });
});
