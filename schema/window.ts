import type { SessionWindow } from '../resolvers/sessions/session.js';
import type { Bounds } from '../transports/contract.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';

export const BoundsRef = builder.objectRef<Bounds>('Bounds').implement({
  description: 'A window rectangle in screen pixels.',
  fields: (t) => ({
    x: t.exposeInt('x'),
    y: t.exposeInt('y'),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
  }),
});

export const WindowRef = builder.objectRef<SessionWindow>('Window').implement({
  description: 'A top-level window of an app (a BrowserWindow in Electron).',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Stable for the life of the window within its session (w1, w2, ...).',
    }),
    sessionId: t.exposeID('sessionId'),
    title: t.exposeString('title'),
    url: t.exposeString('url'),
    bounds: t.field({
      type: BoundsRef,
      nullable: true,
      description: 'Null when the main process did not answer in time.',
      resolve: (window, _args, { sessions }) => sessions.get(window.sessionId).bounds(window.id),
    }),
    focused: t.boolean({
      resolve: (window, _args, { sessions }) => sessions.get(window.sessionId).isFocused(window.id),
    }),
  }),
});

const WindowSelectorInput = builder.inputType('WindowSelector', {
  description: 'Picks one window: by id, by title or url substring, or by index in opening order.',
  fields: (t) => ({
    id: t.id({ required: false }),
    titleContains: t.string({ required: false }),
    urlContains: t.string({ required: false }),
    index: t.int({ required: false }),
  }),
});

builder.mutationField('switchWindow', (t) =>
  t.field({
    type: WindowRef,
    description: "Makes a window the session's active window and brings it to the front.",
    ...requiresCapability('WINDOWS'),
    args: {
      session: t.arg.id({ required: false, description: 'Optional when exactly one session is live.' }),
      window: t.arg({ type: WindowSelectorInput, required: true }),
    },
    resolve: (_root, args, { sessions }) => sessions.get(args.session).switchWindow(args.window),
  }),
);
