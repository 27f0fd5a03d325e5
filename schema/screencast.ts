import type { Delivery } from '../domain/bounded/subscriber-queue.js';
import { type ScreencastFrame, screencast } from '../domain/screencast/screencast.js';
import { SCREENCAST_LIMITS } from '../domain/screencast/screencast-request.js';
import { builder } from './builder.js';
import { clientKeys } from './client-keys.js';
import { sharesExecutionPerEvent } from './shared-execution.js';

const ScreencastSourceEnum = builder.enumType('ScreencastSource', {
  description: 'How the frames of a screencast are obtained, which says how live they are.',
  values: {
    CDP_SCREENCAST: {
      description:
        'Chromium pushes a frame whenever the page repaints (CDP Page.startScreencast): a static page sends one frame and then nothing until it changes.',
    },
    SCREENSHOT: {
      description:
        'The page is captured up to maxFps times a second and a frame is sent only when the picture changed (where the transport cannot hear repaints).',
    },
    X11_CAPTURE: {
      description:
        "The window's area of the X screen is captured up to maxFps times a second and a frame is sent only when it changed (desktop apps).",
    },
  } as const,
});

const ScreencastFrameRef = builder.objectRef<Delivery<ScreencastFrame>>('ScreencastFrame').implement({
  description: "One JPEG frame of a window's live view, as delivered to this viewer.",
  fields: (t) => ({
    sessionId: t.id({ description: 'The session of the window shown.', resolve: (d) => d.event.sessionId }),
    windowId: t.id({ description: 'The window shown.', resolve: (d) => d.event.windowId }),
    seq: t.int({
      description:
        "Counts the frames this stream's producer made (1 for its first); viewers of the same window and options share a producer, so a viewer who joined late starts above 1.",
      resolve: (d) => d.event.seq,
    }),
    mimeType: t.string({ description: 'Always `image/jpeg`.', resolve: (d) => d.event.mimeType }),
    data: t.string({
      description: 'The JPEG, base64-encoded: show it as `data:image/jpeg;base64,` followed by this.',
      resolve: (d) => d.event.data,
    }),
    width: t.int({
      description: 'Width of the JPEG in pixels (at most maxWidth).',
      resolve: (d) => d.event.width,
    }),
    height: t.int({ description: 'Height of the JPEG in pixels.', resolve: (d) => d.event.height }),
    capturedAt: t.field({
      type: 'DateTime',
      description: 'When the frame was captured (for a CDP screencast, when Chromium drew it).',
      resolve: (d) => d.event.capturedAt,
    }),
    source: t.field({
      type: ScreencastSourceEnum,
      description: 'How the frame was obtained.',
      resolve: (d) => d.event.source,
    }),
    droppedBefore: t.exposeInt('droppedBefore', {
      description:
        'Frames this viewer did not get since its previous frame because it read too slowly: each viewer holds one unread frame, and a newer frame replaces it.',
    }),
  }),
});

const { maxFps, quality, maxWidth } = SCREENCAST_LIMITS;

builder.subscriptionField('screencast', (t) =>
  t.field({
    type: ScreencastFrameRef,
    description:
      'A live view of one window as JPEG frames. Viewers of the same window with the same options share one capture, started by the first and stopped when the last leaves; a viewer joining a running one gets its latest frame at once. A slow viewer skips frames (see droppedBefore) and never slows the app or other viewers. The stream ends when the window closes or the session ends. Arguments outside their range fail with BAD_INPUT before any frame.',
    requiresCapability: { capability: 'SCREENSHOT', session: 'session' },
    args: {
      session: t.arg.id({ required: true, description: 'The session whose window to show.' }),
      window: t.arg.id({
        required: false,
        description:
          "A window id; default: the session's active window. The stream ends when that window closes.",
      }),
      maxFps: t.arg.int({
        required: false,
        defaultValue: maxFps.default,
        description: `Frames per second at most, ${maxFps.min} to ${maxFps.max}. A page that does not repaint sends fewer.`,
      }),
      quality: t.arg.int({
        required: false,
        defaultValue: quality.default,
        description: `JPEG quality, ${quality.min} to ${quality.max}: lower is smaller and blurrier.`,
      }),
      maxWidth: t.arg.int({
        required: false,
        defaultValue: maxWidth.default,
        description: `Frames wider than this many pixels (${maxWidth.min} to ${maxWidth.max}) are scaled down to it, keeping their aspect ratio.`,
      }),
    },
    ...sharesExecutionPerEvent,
    subscribe: (_root, args, context) =>
      screencast(
        context.sessions.get(String(args.session)),
        context.hub,
        {
          window: args.window == null ? null : String(args.window),
          maxFps: args.maxFps,
          quality: args.quality,
          maxWidth: args.maxWidth,
        },
        clientKeys(context),
      ),
    resolve: (delivery) => delivery,
  }),
);
