import { type TakenScreenshot, takeScreenshot } from '../domain/interaction/screenshot.js';
import { builder } from './builder.js';
import { TargetInput } from './target.js';
import { WindowRef } from './window.js';

const ImageFormatEnum = builder.enumType('ImageFormat', {
  description: 'How a screenshot is encoded.',
  values: {
    PNG: { description: 'Lossless PNG (the default).' },
    JPEG: { description: 'Lossy JPEG: smaller; `quality` sets the trade-off.' },
  } as const,
});

const ScreenshotRef = builder.objectRef<TakenScreenshot>('Screenshot').implement({
  description: 'An image of a window (its viewport or whole page) or of one element.',
  fields: (t) => ({
    windowId: t.exposeID('windowId', { description: 'The window it was taken of.' }),
    format: t.field({
      type: ImageFormatEnum,
      description: 'How it is encoded.',
      resolve: (shot) => (shot.format === 'png' ? 'PNG' : 'JPEG'),
    }),
    width: t.exposeInt('width', { description: 'Pixels, read from the image itself.' }),
    height: t.exposeInt('height', { description: 'Pixels, read from the image itself.' }),
    byteLength: t.exposeInt('byteLength', { description: 'Bytes of the encoded image (before base64).' }),
    base64: t.exposeString('base64', { description: 'The image bytes; select it only when you need them.' }),
    path: t.exposeString('path', {
      nullable: true,
      description:
        "Where it was saved in the session's artifact folder (with `save: true`): an absolute path on the server; null otherwise. `session { artifacts }` gives its URL.",
    }),
  }),
});

builder.objectField(WindowRef, 'screenshot', (t) =>
  t.field({
    type: ScreenshotRef,
    description: 'The viewport, the full page, or one element.',
    requiresCapability: 'SCREENSHOT',
    args: {
      format: t.arg({ type: ImageFormatEnum, required: false, description: 'Default PNG.' }),
      quality: t.arg.int({ required: false, description: 'JPEG only, 0..100 (default 80).' }),
      fullPage: t.arg.boolean({
        required: false,
        description:
          'The whole scrollable page instead of the viewport; ignored with `target`. Default false.',
      }),
      target: t.arg({
        type: TargetInput,
        required: false,
        description: 'Only this element (found within 5000 ms), instead of the viewport.',
      }),
      save: t.arg.boolean({
        required: false,
        description:
          "Also write it to the session's artifact folder as screenshots/<window>-<n>.png or .jpg and return `path`. Default false.",
      }),
    },
    resolve: (window, args, { sessions }) =>
      takeScreenshot(sessions.get(window.sessionId), {
        window: window.id,
        target: args.target ?? null,
        format: args.format === 'JPEG' ? 'jpeg' : 'png',
        quality: args.quality ?? null,
        fullPage: args.fullPage ?? null,
        save: args.save ?? null,
      }),
  }),
);
