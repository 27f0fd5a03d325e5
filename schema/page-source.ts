import { type HtmlSource, readHtml } from '../domain/interaction/html-source.js';
import { textContentOf } from '../domain/snapshot/text-content.js';
import { builder } from './builder.js';
import { SnapshotNodeRef } from './snapshot.js';
import { TargetInput } from './target.js';
import { WindowRef } from './window.js';

const HtmlSourceRef = builder.objectRef<HtmlSource>('HtmlSource').implement({
  description:
    'An element\'s or a document\'s markup, for what an accessibility view does not show; password values and values marked secret read "[redacted]".',
  fields: (t) => ({
    windowId: t.exposeID('windowId', { description: 'The window it was read from.' }),
    html: t.exposeString('html', {
      description:
        'The markup; when longer than `truncateAt`, its first `truncateAt` characters followed by `<!-- stagegraph: truncated, N more characters -->`.',
    }),
    length: t.exposeInt('length', { description: 'Characters of the whole markup, before any cut.' }),
    truncated: t.exposeBoolean('truncated', { description: '`html` was cut at `truncateAt`.' }),
  }),
});

builder.objectField(WindowRef, 'html', (t) =>
  t.field({
    type: HtmlSourceRef,
    description:
      "An element's HTML (or the whole document's without `target`), as the DOM serializes it now. Prefer `snapshot { outline }` to decide what to do; this is for what it does not cover (attributes, markup structure).",
    requiresCapability: 'SNAPSHOT',
    args: {
      target: t.arg({
        type: TargetInput,
        required: false,
        description: 'The element (found within 5000 ms); the whole document when left out.',
      }),
      outer: t.arg.boolean({
        required: false,
        defaultValue: true,
        description:
          "true: the element's own tag and its content (outerHTML); false: its content only (innerHTML).",
      }),
      truncateAt: t.arg.int({
        required: false,
        description: 'Cut the markup after this many characters (0 to 1000000; default 20000).',
      }),
    },
    resolve: (window, args, { sessions }) =>
      readHtml(sessions.get(window.sessionId), {
        window: window.id,
        target: args.target ?? null,
        outer: args.outer ?? true,
        truncateAt: args.truncateAt ?? null,
      }),
  }),
);

builder.objectField(SnapshotNodeRef, 'textContent', (t) =>
  t.string({
    nullable: true,
    description:
      'The DOM textContent of the node\'s element as it is now — hidden text included, unlike `text` — secrets redacted, capped at 4,000 characters (then "…"). Read from the page only when selected, for all the nodes of one snapshot in one call; null for a node read alone (an action\'s `target` and `diff`) and once its element has left the page.',
    resolve: ({ node, snapshot }, _args, { sessions }) =>
      snapshot ? textContentOf(sessions, snapshot, node.ref) : null,
  }),
);
