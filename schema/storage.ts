import type { OriginStorage, StorageItem } from '../resolvers/capture/storage.js';
import type { Cookie, StorageArea, StorageOperation } from '../transports/renderer-control.js';
import { builder } from './builder.js';
import { requiresCapability } from './capability.js';
import type { GatewayContext } from './context.js';
import { SessionRef } from './session.js';

const SameSiteEnum = builder.enumType('SameSite', { values: ['Strict', 'Lax', 'None'] as const });

const StorageAreaEnum = builder.enumType('StorageArea', {
  values: { LOCAL: { value: 'local' }, SESSION: { value: 'session' } } as const,
  description: 'LOCAL: localStorage; SESSION: sessionStorage (of the open window of the origin).',
});

const CookieRef = builder.objectRef<Cookie>('Cookie').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    value: t.exposeString('value', { description: 'Redacted unless read with `reveal: true`.' }),
    domain: t.exposeString('domain'),
    path: t.exposeString('path'),
    expires: t.exposeFloat('expires', { description: 'Seconds since the epoch; -1 for a session cookie.' }),
    httpOnly: t.exposeBoolean('httpOnly'),
    secure: t.exposeBoolean('secure'),
    sameSite: t.field({ type: SameSiteEnum, resolve: (cookie) => cookie.sameSite }),
  }),
});

const StorageItemRef = builder.objectRef<StorageItem>('StorageItem').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    value: t.exposeString('value', { description: 'Redacted unless read with `reveal: true`.' }),
  }),
});

const OriginStorageRef = builder.objectRef<OriginStorage>('OriginStorage').implement({
  description: "An origin's cookies and web storage at one moment.",
  fields: (t) => ({
    origin: t.exposeString('origin'),
    cookies: t.field({ type: [CookieRef], resolve: (storage) => storage.cookies }),
    localStorage: t.field({ type: [StorageItemRef], resolve: (storage) => storage.localStorage }),
    sessionStorage: t.field({ type: [StorageItemRef], resolve: (storage) => storage.sessionStorage }),
  }),
});

builder.objectFields(SessionRef, (t) => {
  const reveal = t.arg.boolean({ required: false, description: 'Show values; redacted by default.' });
  const storage = requiresCapability('STORAGE');
  return {
    cookies: t.field({
      type: [CookieRef],
      description: 'Cookies of the renderers, for `urls` when given; values redacted unless `reveal`.',
      ...storage,
      args: {
        urls: t.arg.stringList({ required: false }),
        name: t.arg.string({ required: false }),
        domain: t.arg.string({ required: false }),
        reveal,
      },
      resolve: (session, args) => session.capture.storage.cookies(args),
    }),
    storageOrigins: t.field({
      type: ['String'],
      description: 'Origins of the open windows: where web storage can be read and written.',
      ...storage,
      resolve: (session) => session.capture.storage.origins(),
    }),
    storage: t.field({
      type: OriginStorageRef,
      description: "A snapshot of one origin's cookies, localStorage and sessionStorage.",
      ...storage,
      args: { origin: t.arg.string({ required: true }), reveal },
      resolve: (session, args) => session.capture.storage.snapshot(args.origin, args.reveal ?? false),
    }),
    webStorage: t.field({
      type: [StorageItemRef],
      description: "One origin's localStorage or sessionStorage, sorted by key; only `keys` when given.",
      ...storage,
      args: {
        origin: t.arg.string({ required: true }),
        area: t.arg({ type: StorageAreaEnum, required: true }),
        keys: t.arg.stringList({ required: false }),
        reveal,
      },
      resolve: async (session, args) => {
        const items = await session.capture.storage.webStorage(
          args.origin,
          args.area,
          { op: 'items' },
          args.reveal ?? false,
        );
        return args.keys ? items.filter((item) => args.keys?.includes(item.key)) : items;
      },
    }),
  };
});

const CookieInput = builder.inputType('CookieInput', {
  description: 'Give `url`, or `domain` (and optionally `path`).',
  fields: (t) => ({
    name: t.string({ required: true }),
    value: t.string({ required: true }),
    url: t.string({ required: false }),
    domain: t.string({ required: false }),
    path: t.string({ required: false }),
    expires: t.float({
      required: false,
      description: 'Seconds since the epoch; a session cookie when absent.',
    }),
    httpOnly: t.boolean({ required: false }),
    secure: t.boolean({ required: false }),
    sameSite: t.field({ type: SameSiteEnum, required: false }),
  }),
});

builder.mutationFields((t) => {
  const session = t.arg.id({ required: false, description: 'Optional when exactly one session is live.' });
  const storage = requiresCapability('STORAGE');
  const where = {
    session,
    origin: t.arg.string({ required: true }),
    area: t.arg({ type: StorageAreaEnum, required: true }),
  };
  const change = (
    args: { session?: string | null; origin: string; area: StorageArea },
    context: GatewayContext,
    operation: StorageOperation,
  ) =>
    context.sessions.get(args.session).capture.storage.webStorage(args.origin, args.area, operation, false);
  return {
    setCookie: t.field({
      type: 'Boolean',
      ...storage,
      args: { session, cookie: t.arg({ type: CookieInput, required: true }) },
      resolve: async (_root, args, { sessions }) => {
        const { expires, httpOnly, secure, sameSite, url, domain, path, ...named } = args.cookie;
        await sessions.get(args.session).capture.storage.setCookie({
          ...named,
          ...(url == null ? {} : { url }),
          ...(domain == null ? {} : { domain }),
          ...(path == null ? {} : { path }),
          ...(expires == null ? {} : { expires }),
          ...(httpOnly == null ? {} : { httpOnly }),
          ...(secure == null ? {} : { secure }),
          ...(sameSite == null ? {} : { sameSite }),
        });
        return true;
      },
    }),
    clearCookies: t.field({
      type: 'Boolean',
      description: 'Removes cookies: all, or those with this name and/or domain.',
      ...storage,
      args: { session, name: t.arg.string({ required: false }), domain: t.arg.string({ required: false }) },
      resolve: async (_root, args, { sessions }) => {
        await sessions.get(args.session).capture.storage.clearCookies(args);
        return true;
      },
    }),
    setStorageItem: t.field({
      type: [StorageItemRef],
      description: 'Sets one key; returns the area afterwards (values redacted).',
      ...storage,
      args: { ...where, key: t.arg.string({ required: true }), value: t.arg.string({ required: true }) },
      resolve: (_root, args, context) =>
        change(args, context, { op: 'set', key: args.key, value: args.value }),
    }),
    removeStorageItem: t.field({
      type: [StorageItemRef],
      ...storage,
      args: { ...where, key: t.arg.string({ required: true }) },
      resolve: (_root, args, context) => change(args, context, { op: 'remove', key: args.key }),
    }),
    clearStorage: t.field({
      type: [StorageItemRef],
      ...storage,
      args: where,
      resolve: (_root, args, context) => change(args, context, { op: 'clear' }),
    }),
  };
});
