import {
  DirectiveLocation,
  defaultFieldResolver,
  GraphQLDirective,
  type GraphQLEnumType,
  GraphQLNonNull,
  GraphQLSchema,
  isObjectType,
} from 'graphql';
import { Session } from '../domain/sessions/session.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { CAPABILITIES, type Capability, type CapabilityMatrix } from '../transports/contract/capabilities.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';

/** What works when a capability is true: the operations it opens, by the fields that require it. */
const CAPABILITY_DESCRIPTIONS: Record<Capability, string> = {
  LAUNCH:
    'Starts an Electron app from its main script or executable: `launch` runs on a transport with it (CAPABILITY_UNSUPPORTED otherwise).',
  ATTACH:
    'Reaches a running app over its remote-debugging port: `attach`, `launchCommand` and `discover` use a transport with it.',
  INJECT:
    "Enters a running app's main process through its Node inspector, with no debugging flag needed: `inject` uses a transport with it.",
  INTERCEPT:
    'Network capture and stubs: Session.network, networkCaptures and networkStubs, the `network` subscription, startNetworkCapture, stopNetworkCapture, stubNetwork, unstubNetwork.',
  CLOCK:
    "A fake clock in the app's pages: Session.clock, installClock, setFixedTime, setSystemTime, advanceClock, runClockFor, pauseClockAt, resumeClock.",
  MAIN_EVAL:
    'Code and IPC in the main process: evalMain, Session.ipc, armIpc, stopIpc, invokeIpc (all present only with --allow-eval or --allow-eval=main).',
  RENDERER_EVAL: 'Code in a window: evalRenderer (present only with --allow-eval or --allow-eval=renderer).',
  INTERACTION:
    'Acting on page elements: click, fill, type, press, hover, focus, clear, scroll, selectOption, setChecked, setInputFiles, dragTo.',
  SNAPSHOT:
    'Reading the accessibility tree: Window.snapshot, find and node, expect, the `snapshotChanges` subscription.',
  SCREENSHOT: 'Window.screenshot.',
  STORAGE:
    'Cookies and web storage: Session.cookies, storage, storageOrigins and webStorage; setCookie, clearCookies, setStorageItem, removeStorageItem, clearStorage.',
  NATIVE_UI:
    "The main process's own UI: Session.applicationMenu, menuItem, contextMenu, trays, notifications and nativeDialogs; invokeMenuItem, invokeContextMenuItem, invokeTray, armNotifications, stopNotifications, setNativeDialogPolicy.",
  CONSOLE:
    'Session.console: console output of the windows and, where the transport reaches it, the main process.',
  DIALOGS:
    'JavaScript dialogs of the pages (alert, confirm, prompt, beforeunload): Session.dialogs and dialogPolicy, setDialogPolicy, the `dialogs` subscription.',
  WINDOWS: 'Listing and choosing windows: Session.windows, window and activeWindow, switchWindow.',
};

builder.enumType('Capability', {
  description: 'A seam a transport may support. Fields that need one say so with @requiresCapability.',
  values: Object.fromEntries(
    CAPABILITIES.map((capability) => [
      capability,
      { value: capability, description: CAPABILITY_DESCRIPTIONS[capability] },
    ]),
  ) as Record<Capability, { value: Capability; description: string }>,
});

export const CapabilitiesRef = builder.objectRef<CapabilityMatrix>('Capabilities').implement({
  description:
    'What a transport (Query.transports) or a session (Session.capabilities, which may be less, e.g. an inject whose window upgrade failed) can really do: each flag is true only where the whole seam works.',
  fields: (t) =>
    Object.fromEntries(
      CAPABILITIES.map((capability) => [
        capability,
        t.exposeBoolean(capability, {
          description: CAPABILITY_DESCRIPTIONS[capability],
        }),
      ]),
    ),
});

/**
 * Field options that mark a field as needing `capability`: the directive shows it in the SDL, the
 * extension is what `enforceCapabilities` reads. One helper sets both so they cannot drift apart.
 * `perEventSource`: a subscription whose stream, without `session`, spans every session and keeps only
 * events from sessions that have the capability — so it is not refused for want of one session.
 */
export function requiresCapability(capability: Capability, options: { perEventSource?: boolean } = {}) {
  return {
    directives: { requiresCapability: { capability } },
    extensions: { requiresCapability: capability, gatePerEventSource: options.perEventSource ?? false },
  } as const;
}

/**
 * Wraps every field marked with `requiresCapability` so it is refused before its resolver (and so before
 * any transport call) when the session it acts on lacks the capability. Run once on the built schema.
 */
export function enforceCapabilities(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const capability = field.extensions?.requiresCapability as Capability | undefined;
      if (!capability) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      const everySession = field.extensions?.gatePerEventSource === true;
      field.resolve = (parent, args, context: GatewayContext, info) => {
        // An event of a stream spanning sessions: its source was checked when the stream kept it.
        if (everySession && args.session == null) return resolve(parent, args, context, info);
        const session = sessionOf(parent, args, context);
        if (!session.capabilities[capability]) throw refusal(session, capability, context);
        return resolve(parent, args, context, info);
      };
      const subscribe = field.subscribe;
      // A subscription starts its work in `subscribe`, so that is where it must be refused. One gated per
      // event source watches every session when `session` is omitted, its stream keeping only events from
      // sessions with the capability: refused then only where no transport could ever feed it.
      if (subscribe) {
        field.subscribe = (parent, args, context: GatewayContext, info) => {
          if (everySession && args.session == null) {
            if (!context.sessions.transports().some((transport) => transport.capabilities[capability]))
              throw noTransportHas(capability);
            return subscribe(parent, args, context, info);
          }
          const session = sessionOf(parent, args, context);
          if (!session.capabilities[capability]) throw refusal(session, capability, context);
          return subscribe(parent, args, context, info);
        };
      }
    }
  }
  const capabilityEnum = schema.getType('Capability') as GraphQLEnumType;
  const directive = new GraphQLDirective({
    name: 'requiresCapability',
    description: 'Refused, before any transport call, on a session whose transport lacks this capability.',
    locations: [DirectiveLocation.FIELD_DEFINITION],
    args: {
      capability: {
        type: new GraphQLNonNull(capabilityEnum),
        description:
          "The capability the session's transport must have; without it the field fails with CAPABILITY_UNSUPPORTED, naming the transports that have it.",
      },
    },
  });
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, directives: [...config.directives, directive] });
}

function sessionOf(parent: unknown, args: Record<string, unknown>, context: GatewayContext): Session {
  if (parent instanceof Session) return parent;
  const parentSession = (parent as { sessionId?: unknown } | null)?.sessionId;
  if (typeof parentSession === 'string') return context.sessions.get(parentSession);
  const argument = args.session ?? args.id;
  return context.sessions.get(typeof argument === 'string' ? argument : undefined);
}

function refusal(session: Session, capability: Capability, context: GatewayContext): StagegraphError {
  const able = context.sessions
    .transports()
    .filter((transport) => transport.capabilities[capability])
    .map((transport) => transport.id);
  const where =
    able.length > 0
      ? `Transports that have it: ${able.join(', ')}.`
      : 'No transport of this server has it yet.';
  return new StagegraphError(
    'CAPABILITY_UNSUPPORTED',
    `Session ${session.id} runs on ${session.transportId}, which lacks ${capability}. ${where}`,
    {
      nextActions: [`query { transports { id capabilities { ${capability} } } }`],
      details: { capability, transport: session.transportId, transportsWithCapability: able },
    },
  );
}

function noTransportHas(capability: Capability): StagegraphError {
  return new StagegraphError(
    'CAPABILITY_UNSUPPORTED',
    `No transport of this server has ${capability}, so this subscription could never deliver anything.`,
    {
      nextActions: [`query { transports { id capabilities { ${capability} } } }`],
      details: { capability, transportsWithCapability: [] },
    },
  );
}
