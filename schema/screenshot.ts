import { type TakenScreenshot, takeScreenshot } from '../resolvers/interaction/screenshot.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import { TargetInput } from './target.js';
import { WindowRef } from './window.js';

const ImageFormatEnum = builder.enumType('ImageFormat', { values: ['PNG', 'JPEG'] as const });

const ScreenshotRef = builder.objectRef<TakenScreenshot>('Screenshot').implement({
  fields: (t) => ({
    windowId: t.exposeID('windowId'),
    format: t.field({ type: ImageFormatEnum, resolve: (shot) => (shot.format === 'png' ? 'PNG' : 'JPEG') }),
    width: t.exposeInt('width', { description: 'Pixels, read from the image itself.' }),
    height: t.exposeInt('height'),
    byteLength: t.exposeInt('byteLength'),
    base64: t.exposeString('base64', { description: 'The image bytes; select it only when you need them.' }),
    path: t.exposeString('path', {
      nullable: true,
      description: "Where it was saved in the session's artifact folder (with `save: true`).",
    }),
  }),
});

builder.objectField(WindowRef, 'screenshot', (t) =>
  t.field({
    type: ScreenshotRef,
    description: 'The viewport, the full page, or one element.',
    ...requiresCapability('SCREENSHOT'),
    args: {
      format: t.arg({ type: ImageFormatEnum, required: false }),
      quality: t.arg.int({ required: false, description: 'JPEG only, 0..100 (default 80).' }),
      fullPage: t.arg.boolean({ required: false }),
      target: t.arg({ type: TargetInput, required: false }),
      save: t.arg.boolean({ required: false }),
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
