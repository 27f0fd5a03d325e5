import type { OriginStorage, StorageItem } from '../domain/page-state/storage.js';
import type { Cookie, StorageArea, StorageOperation } from '../transports/contract/renderer-control.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { revealFor } from './reveal.js';
import { SessionRef } from './session.js';
import { sessionArg } from './session-arg.js';

const SameSiteEnum = builder.enumType('SameSite', {
  description: "A cookie's SameSite attribute: when the browser sends it on cross-site requests.",
  values: {
    Strict: { description: 'Sent only on same-site requests.' },
    Lax: { description: 'Sent on same-site requests and top-level cross-site navigations.' },
    None: { description: 'Sent on every request (browsers require `secure` for it).' },
  } as const,
});

const StorageAreaEnum = builder.enumType('StorageArea', {
  values: {
    LOCAL: { value: 'local', description: "The origin's localStorage." },
    SESSION: { value: 'session', description: "The sessionStorage of the origin's first open window." },
  } as const,
  description: 'LOCAL: localStorage; SESSION: sessionStorage (of the open window of the origin).',
});

const CookieRef = builder.objectRef<Cookie>('Cookie').implement({
  description: "A cookie in the renderers' cookie store.",
  fields: (t) => ({
    name: t.exposeString('name', { description: "The cookie's name." }),
    value: t.exposeString('value', { description: 'Redacted unless read with `reveal: true`.' }),
    domain: t.exposeString('domain', {
      description: 'The domain it is sent to; a leading dot means subdomains too.',
    }),
    path: t.exposeString('path', { description: 'The URL path prefix it is sent for.' }),
    expires: t.exposeFloat('expires', { description: 'Seconds since the epoch; -1 for a session cookie.' }),
    httpOnly: t.exposeBoolean('httpOnly', {
      description: 'True when page scripts cannot read it (HttpOnly).',
    }),
    secure: t.exposeBoolean('secure', { description: 'True when it is sent over HTTPS only (Secure).' }),
    sameSite: t.field({
      type: SameSiteEnum,
      description: 'Its SameSite attribute.',
      resolve: (cookie) => cookie.sameSite,
    }),
  }),
});

const StorageItemRef = builder.objectRef<StorageItem>('StorageItem').implement({
  description: 'One key of localStorage or sessionStorage.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The storage key.' }),
    value: t.exposeString('value', { description: 'Redacted unless read with `reveal: true`.' }),
  }),
});

const OriginStorageRef = builder.objectRef<OriginStorage>('OriginStorage').implement({
  description: "An origin's cookies and web storage at one moment.",
  fields: (t) => ({
    origin: t.exposeString('origin', {
      description:
        'The origin read, as asked (`http://127.0.0.1:8080`, or `null` for file:// and data: pages).',
    }),
    cookies: t.field({
      type: [CookieRef],
      description: "Cookies sent to the origin's URL; always empty for the opaque origin `null`.",
      resolve: (storage) => storage.cookies,
    }),
    localStorage: t.field({
      type: [StorageItemRef],
      description: 'Its localStorage, sorted by key.',
      resolve: (storage) => storage.localStorage,
    }),
    sessionStorage: t.field({
      type: [StorageItemRef],
      description: "Its first open window's sessionStorage, sorted by key.",
      resolve: (storage) => storage.sessionStorage,
    }),
  }),
});

/** The origin whose web storage a field reads or changes. */
const originArg = builder.args((t) => ({
  origin: t.string({
    required: true,
    description:
      'An origin of an open window, as `storageOrigins` lists it; any other fails with STORAGE_ORIGIN_NOT_OPEN.',
  }),
}));

builder.objectFields(SessionRef, (t) => {
  const reveal = t.arg.boolean({
    required: false,
    description:
      "Show values in clear; redacted by default. Only an agent's token may (and only under a policy whose `reveal` is AGENT, the default); any other role gets REVEAL_FORBIDDEN.",
  });
  const storage = { requiresCapability: 'STORAGE' } as const;
  return {
    cookies: t.field({
      type: [CookieRef],
      description: 'Cookies of the renderers, for `urls` when given; values redacted unless `reveal`.',
      ...storage,
      args: {
        urls: t.arg.stringList({
          required: false,
          description:
            'Only cookies sent to these absolute URLs (a non-URL fails with BAD_INPUT); every cookie when absent.',
        }),
        name: t.arg.string({ required: false, description: 'Only cookies with exactly this name.' }),
        domain: t.arg.string({
          required: false,
          description: 'Only cookies of this domain (`example.com` also matches `.example.com`).',
        }),
        reveal,
      },
      resolve: (session, args, context) =>
        session.pageState.storage.cookies({
          ...args,
          reveal: revealFor(context, args.reveal, 'cookie values'),
        }),
    }),
    storageOrigins: t.field({
      type: ['String'],
      description: 'Origins of the open windows: where web storage can be read and written.',
      ...storage,
      resolve: (session) => session.pageState.storage.origins(),
    }),
    storage: t.field({
      type: OriginStorageRef,
      description: "A snapshot of one origin's cookies, localStorage and sessionStorage.",
      ...storage,
      args: {
        ...originArg,
        reveal,
      },
      resolve: (session, args, context) =>
        session.pageState.storage.snapshot(args.origin, revealFor(context, args.reveal, 'storage values')),
    }),
    webStorage: t.field({
      type: [StorageItemRef],
      description: "One origin's localStorage or sessionStorage, sorted by key; only `keys` when given.",
      ...storage,
      args: {
        ...originArg,
        area: t.arg({ type: StorageAreaEnum, required: true, description: 'LOCAL or SESSION storage.' }),
        keys: t.arg.stringList({ required: false, description: 'Only these keys; every key when absent.' }),
        reveal,
      },
      resolve: async (session, args, context) => {
        const reveal = revealFor(context, args.reveal, 'storage values');
        const items = await session.pageState.storage.webStorage(
          args.origin,
          args.area,
          { op: 'items' },
          reveal,
        );
        return args.keys ? items.filter((item) => args.keys?.includes(item.key)) : items;
      },
    }),
  };
});

const CookieInput = builder.inputType('CookieInput', {
  description: 'Give `url`, or `domain` (and optionally `path`).',
  fields: (t) => ({
    name: t.string({ required: true, description: "The cookie's name." }),
    value: t.string({ required: true, description: "The cookie's value." }),
    url: t.string({
      required: false,
      description:
        'The URL it belongs to; its domain and path follow from it. Required unless `domain` is given.',
    }),
    domain: t.string({
      required: false,
      description: 'The domain to set it for, when no `url` is given (`.example.com` includes subdomains).',
    }),
    path: t.string({ required: false, description: 'With `domain`: the path it is sent for (default `/`).' }),
    expires: t.float({
      required: false,
      description: 'Seconds since the epoch; a session cookie when absent.',
    }),
    httpOnly: t.boolean({ required: false, description: 'Hide it from page scripts (HttpOnly).' }),
    secure: t.boolean({ required: false, description: 'Send it over HTTPS only (Secure).' }),
    sameSite: t.field({ type: SameSiteEnum, required: false, description: 'Its SameSite attribute.' }),
  }),
});

builder.mutationFields((t) => {
  const storage = { requiresCapability: 'STORAGE', governance: { session: 'session' } } as const;
  const where = {
    ...sessionArg,
    ...originArg,
    area: t.arg({ type: StorageAreaEnum, required: true, description: 'LOCAL or SESSION storage.' }),
  };
  const change = (
    args: { session?: string | null; origin: string; area: StorageArea },
    context: GatewayContext,
    operation: StorageOperation,
  ) =>
    context.sessions.get(args.session).pageState.storage.webStorage(args.origin, args.area, operation, false);
  return {
    setCookie: t.field({
      type: 'Boolean',
      description:
        "Adds or replaces a cookie in the renderers' cookie store; true when set. Neither `url` nor `domain` fails with BAD_INPUT.",
      ...storage,
      args: {
        ...sessionArg,
        cookie: t.arg({ type: CookieInput, required: true, description: 'The cookie to set.' }),
      },
      resolve: async (_root, args, { sessions }) => {
        const { expires, httpOnly, secure, sameSite, url, domain, path, ...named } = args.cookie;
        await sessions.get(args.session).pageState.storage.setCookie({
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
      args: {
        ...sessionArg,
        name: t.arg.string({ required: false, description: 'Only cookies with this name.' }),
        domain: t.arg.string({ required: false, description: 'Only cookies of this domain.' }),
      },
      resolve: async (_root, args, { sessions }) => {
        await sessions.get(args.session).pageState.storage.clearCookies(args);
        return true;
      },
    }),
    setStorageItem: t.field({
      type: [StorageItemRef],
      description: 'Sets one key; returns the area afterwards (values redacted).',
      ...storage,
      args: {
        ...where,
        key: t.arg.string({ required: true, description: 'The key to set.' }),
        value: t.arg.string({ required: true, description: 'The value to store under it.' }),
      },
      resolve: (_root, args, context) =>
        change(args, context, { op: 'set', key: args.key, value: args.value }),
    }),
    removeStorageItem: t.field({
      type: [StorageItemRef],
      description: 'Removes one key (absent keys are fine); returns the area afterwards (values redacted).',
      ...storage,
      args: { ...where, key: t.arg.string({ required: true, description: 'The key to remove.' }) },
      resolve: (_root, args, context) => change(args, context, { op: 'remove', key: args.key }),
    }),
    clearStorage: t.field({
      type: [StorageItemRef],
      description: 'Removes every key of the area; returns it afterwards (empty).',
      ...storage,
      args: where,
      resolve: (_root, args, context) => change(args, context, { op: 'clear' }),
    }),
  };
});
