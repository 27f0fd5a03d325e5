import type { SessionWindow } from '../domain/sessions/session.js';
import type { Bounds } from '../transports/contract/bounds.js';
import { builder } from './builder.js';
import { shownText, shownUrl } from './reveal.js';
import { sessionArg } from './session-arg.js';

export const BoundsRef = builder.objectRef<Bounds>('Bounds').implement({
  description:
    "A rectangle: a window's bounds in screen pixels, or a node's box in CSS pixels of its window's viewport.",
  fields: (t) => ({
    x: t.exposeInt('x', { description: 'The left edge.' }),
    y: t.exposeInt('y', { description: 'The top edge.' }),
    width: t.exposeInt('width', { description: 'The width.' }),
    height: t.exposeInt('height', { description: 'The height.' }),
  }),
});

export const WindowRef = builder.objectRef<SessionWindow>('Window').implement({
  description: 'A top-level window of an app (a BrowserWindow in Electron).',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Stable for the life of the window within its session (w1, w2, ...).',
    }),
    sessionId: t.exposeID('sessionId', { description: 'The session the window belongs to.' }),
    title: t.string({
      description:
        "The window's title when it was listed: in clear for an agent; for approvers and observers (and everyone under the policy's `reveal: NONE`) scrubbed by the policy's redaction patterns.",
      resolve: (window, _args, context) => shownText(context, window.title),
    }),
    url: t.string({
      description:
        "The URL of the window's document when it was listed: in clear for an agent; for approvers and observers (and everyone under the policy's `reveal: NONE`) with its secrets redacted, as a request's URL is.",
      resolve: (window, _args, context) => shownUrl(context, window.url),
    }),
    bounds: t.field({
      type: BoundsRef,
      nullable: true,
      description: 'Null when the main process did not answer in time.',
      resolve: (window, _args, { sessions }) => sessions.get(window.sessionId).bounds(window.id),
    }),
    focused: t.boolean({
      description: 'Whether the app reports this window as focused right now.',
      resolve: (window, _args, { sessions }) => sessions.get(window.sessionId).isFocused(window.id),
    }),
  }),
});

const WindowSelectorInput = builder.inputType('WindowSelector', {
  description:
    'Picks one window: by id, by title or url substring, or by index in opening order. Give at least one (else BAD_INPUT); every one given must hold, and the first match in opening order wins.',
  fields: (t) => ({
    id: t.id({ required: false, description: 'A window id (w1, w2, ...).' }),
    titleContains: t.string({ required: false, description: 'A substring of the title (case-sensitive).' }),
    urlContains: t.string({ required: false, description: 'A substring of the URL (case-sensitive).' }),
    index: t.int({
      required: false,
      description: 'The zero-based position among the open windows, in the order `windows` lists them.',
    }),
  }),
});

builder.mutationField('switchWindow', (t) =>
  t.field({
    type: WindowRef,
    description: "Makes a window the session's active window and brings it to the front.",
    requiresCapability: 'WINDOWS',
    governance: { session: 'session' },
    args: {
      ...sessionArg,
      window: t.arg({
        type: WindowSelectorInput,
        required: true,
        description: 'Which window; WINDOW_NOT_FOUND when no open window matches.',
      }),
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).switchWindow(args.window),
  }),
);
