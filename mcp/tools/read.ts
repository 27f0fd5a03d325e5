import type { BridgeTool } from './tool.js';
import { failure, optionalString, text, WHERE } from './tool.js';

const READ = `query Read($session: ID, $window: ID, $within: ID, $budgetTokens: Int, $since: String, $interactiveOnly: Boolean, $diffOnly: Boolean!) {
  session(id: $session) { window(id: $window) { id title
    snapshot(within: $within, budgetTokens: $budgetTokens, since: $since, interactiveOnly: $interactiveOnly) {
      id truncated estimatedTokens
      outline @skip(if: $diffOnly)
      diff @include(if: $diffOnly) { empty outline }
    } } }
}`;

/** The window as outline text: the interactive outline unless `all`, or what changed since a snapshot. */
export const readTool: BridgeTool = {
  name: 'read',
  description:
    'Outline of a window, one line per node: ref role "name". Interactive nodes only unless all=true. since (a snapshot id or LAST) answers only what changed.',
  inputSchema: {
    type: 'object',
    properties: {
      ...WHERE,
      within: { type: 'string', description: 'A ref: only its subtree.' },
      budgetTokens: {
        type: 'integer',
        minimum: 1,
        description: 'Cut the outline at about this many tokens (says so when it does).',
      },
      since: {
        type: 'string',
        description: 'A snapshot id from an earlier read, or LAST: answer only what changed since.',
      },
      all: { type: 'boolean', description: 'Every node, not only interactive ones.' },
    },
    additionalProperties: false,
  },
  async run(args, { link }) {
    const since = optionalString(args.since);
    const answer = await link.execute(READ, {
      session: optionalString(args.session),
      window: optionalString(args.window),
      within: optionalString(args.within),
      budgetTokens: typeof args.budgetTokens === 'number' ? args.budgetTokens : undefined,
      since,
      interactiveOnly: args.all !== true,
      diffOnly: since !== undefined,
    });
    const window = answer.data?.session?.window;
    const snapshot = window?.snapshot;
    if (!snapshot) return failure(answer.errors ?? [{ message: 'No session is open: call open first.' }]);
    const head = listingHead(window, snapshot);
    if (since === undefined) return text(`${head}\n${snapshot.outline}`);
    const diff = snapshot.diff;
    return text(`${head}, changes since ${since}:\n${diff?.empty ? '(no change)' : (diff?.outline ?? '')}`);
  },
};

/** The line above an outline: which snapshot of which window, and whether it was cut short. */
export function listingHead(
  window: { id: string; title: string },
  snapshot: { id: string; truncated: boolean },
): string {
  return `snapshot ${snapshot.id} of window ${window.id} "${window.title}"${snapshot.truncated ? ' (truncated: pass within or a larger budgetTokens)' : ''}`;
}
