import dbus from 'dbus-next';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { TransportError } from '../../contract/transport-error.js';
import { delay } from '../../process/process-group.js';

/** An accessible object on the accessibility bus: the application's unique bus name and the object path. */
export interface AccessibleRef {
  readonly busName: string;
  readonly path: string;
}

/** One object as an application's Cache.GetItems reports it: what a tree read needs, in one call. */
export interface CacheItem {
  readonly ref: AccessibleRef;
  readonly app: AccessibleRef;
  readonly parent: AccessibleRef;
  readonly indexInParent: number;
  readonly childCount: number;
  readonly interfaces: readonly string[];
  readonly name: string;
  /** AT-SPI's role number (ATSPI_ROLE_*). */
  readonly role: number;
  readonly description: string;
  /** AT-SPI's state set, as the two 32-bit words of the wire (bit n of the set is state n). */
  readonly states: readonly [number, number];
}

/** A signal on the accessibility bus, as the app sent it. */
export interface AtspiSignal {
  readonly sender: string;
  readonly path: string;
  readonly interface: string;
  readonly member: string;
  readonly body: readonly unknown[];
}

export const ACCESSIBLE_IFACE = 'org.a11y.atspi.Accessible';

export const REGISTRY_BUS = 'org.a11y.atspi.Registry';
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const CACHE_PATH = '/org/a11y/atspi/cache';
const REGISTRY_PATH = '/org/a11y/atspi/registry';
/** Calls the other end never answers (a hung app) fail after this with DESKTOP_TIMEOUT. */
export const ATSPI_CALL_TIMEOUT_MS = 10_000;
/**
 * Calls in flight at once on one connection: enough to keep an app's main loop busy, few enough that a
 * call's timeout measures its own answer rather than the thousands queued ahead of it in a big tree read.
 */
export const MAX_CALLS_IN_FLIGHT = 64;
/**
 * How long an action's answer is awaited (callOrLeaveRunning) before the action counts as delivered and
 * still running: a handler that opens a modal dialog (Qt's exec()) answers only once the dialog closes.
 */
const ACTION_SETTLE_MS = 1_000;

/**
 * For reads of objects that may have left the app meanwhile: the app's own error (no such object or
 * interface) answers `fallback`; a timeout or a lost bus is thrown, never taken for an absent object.
 */
export function whenGone<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof TransportError && error.kind === 'protocol') return fallback;
    throw error;
  };
}

/**
 * The events atk-bridge and Qt only start reporting — and serving their Cache — once some client has
 * registered for them with the registry.
 */
const EVENTS = [
  'object:children-changed',
  'object:state-changed',
  'object:property-change',
  'object:text-changed',
  'window:',
  'focus:',
];

/**
 * A connection to a desktop's accessibility bus: calls pipelined over one socket (many in flight at once,
 * so a tree read costs round trips in parallel, not in series), and the bus's signals.
 */
export class AtspiBus {
  readonly #bus: dbus.MessageBus;
  readonly #signalListeners = new Set<(signal: AtspiSignal) => void>();
  #closed = false;
  #inFlight = 0;
  readonly #waitingForSlot: (() => void)[] = [];

  private constructor(bus: dbus.MessageBus) {
    this.#bus = bus;
    bus.on('message', (message) => {
      if (message.type !== dbus.MessageType.SIGNAL || !message.interface?.startsWith('org.a11y.atspi'))
        return;
      const signal: AtspiSignal = {
        sender: message.sender ?? '',
        path: message.path ?? '',
        interface: message.interface,
        member: message.member ?? '',
        body: message.body as unknown[],
      };
      for (const listener of this.#signalListeners) listener(signal);
    });
    bus.on('error', () => {
      this.#closed = true;
    });
  }

  /** Asks the session bus for the accessibility bus's address and connects to it, retrying until `timeoutMs`. */
  static async connect(sessionBusAddress: string, timeoutMs: number): Promise<AtspiBus> {
    const deadline = Date.now() + timeoutMs;
    const session = dbus.sessionBus({ busAddress: sessionBusAddress });
    session.on('error', () => undefined);
    try {
      for (;;) {
        try {
          const reply = await session.call(
            new dbus.Message({
              destination: 'org.a11y.Bus',
              path: '/org/a11y/bus',
              interface: 'org.a11y.Bus',
              member: 'GetAddress',
            }),
          );
          const address = String(reply?.body[0] ?? '');
          if (address) {
            const bus = new AtspiBus(dbus.sessionBus({ busAddress: address }));
            await bus.#registerEvents();
            return bus;
          }
        } catch (error) {
          if (Date.now() > deadline) {
            throw new StagegraphError(
              'DESKTOP_UNAVAILABLE',
              `The accessibility bus did not answer within ${timeoutMs} ms (${(error as Error).message}).`,
            );
          }
        }
        await delay(100);
      }
    } finally {
      session.disconnect();
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #registerEvents(): Promise<void> {
    await this.#bus.call(
      new dbus.Message({
        type: dbus.MessageType.METHOD_CALL,
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'AddMatch',
        signature: 's',
        body: ["type='signal',interface='org.a11y.atspi.Event.Object'"],
      }),
    );
    for (const rule of ['Event.Window', 'Event.Focus', 'Cache']) {
      await this.#bus.call(
        new dbus.Message({
          destination: 'org.freedesktop.DBus',
          path: '/org/freedesktop/DBus',
          interface: 'org.freedesktop.DBus',
          member: 'AddMatch',
          signature: 's',
          body: [`type='signal',interface='org.a11y.atspi.${rule}'`],
        }),
      );
    }
    for (const event of EVENTS) {
      await this.call(REGISTRY_BUS, REGISTRY_PATH, 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [event]);
    }
  }

  /** One method call; the reply's body. A D-Bus error becomes a PROTOCOL_ERROR naming the method. */
  async call(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: readonly unknown[],
  ): Promise<unknown[]> {
    const method = `${iface.replace('org.a11y.atspi.', '')}.${member}`;
    if (this.#closed) throw new TransportError('closed', 'the accessibility bus is disconnected', { method });
    const message = new dbus.Message({
      destination,
      path,
      interface: iface,
      member,
      ...(signature ? { signature, body: [...(body ?? [])] } : {}),
    });
    await this.#slot();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      // A desktop code and hint, not the DevTools one: no debugger is involved, a modal loop often is.
      timer = setTimeout(
        () =>
          reject(
            new StagegraphError(
              'DESKTOP_TIMEOUT',
              `${method}: no answer within ${ATSPI_CALL_TIMEOUT_MS} ms`,
              {
                details: { method },
              },
            ),
          ),
        ATSPI_CALL_TIMEOUT_MS,
      );
    });
    try {
      const reply = await Promise.race([this.#bus.call(message), timeout]);
      return (reply?.body as unknown[]) ?? [];
    } catch (error) {
      if (error instanceof StagegraphError) throw error;
      const text = (error as { text?: string }).text ?? (error as Error).message;
      throw new TransportError('protocol', text.trim(), { method, cause: error });
    } finally {
      clearTimeout(timer);
      this.#release();
    }
  }

  /**
   * A call that may run the app's own modal loop before it answers — an action whose handler opens a
   * dialog and waits for it (Qt's QDialog.exec(), which Qt runs inside DoAction's dispatch). Its reply
   * within ACTION_SETTLE_MS is answered as call() answers; past that it answers `running` and the call
   * stays in flight, its late reply or timeout dropped. What is sent next on this connection still reaches
   * the app after it: the app reads one connection's calls in order, and the modal loop goes on reading them.
   */
  async callOrLeaveRunning(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature?: string,
    body?: readonly unknown[],
  ): Promise<unknown[] | 'running'> {
    const reply = this.call(destination, path, iface, member, signature, body);
    let timer: NodeJS.Timeout | undefined;
    const settled = new Promise<'running'>((resolve) => {
      timer = setTimeout(() => resolve('running'), ACTION_SETTLE_MS);
    });
    try {
      const answer = await Promise.race([reply, settled]);
      if (answer === 'running') reply.catch(() => undefined);
      return answer;
    } finally {
      clearTimeout(timer);
    }
  }

  async #slot(): Promise<void> {
    if (this.#inFlight < MAX_CALLS_IN_FLIGHT) {
      this.#inFlight += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waitingForSlot.push(resolve));
  }

  /** Hands the slot straight to the next waiting call, so the count stays put while calls queue. */
  #release(): void {
    const next = this.#waitingForSlot.shift();
    if (next) next();
    else this.#inFlight -= 1;
  }

  /** A property of an object (`Properties.Get`), unwrapped from its variant. */
  async property(ref: AccessibleRef, iface: string, name: string): Promise<unknown> {
    const [variant] = await this.call(ref.busName, ref.path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
      iface,
      name,
    ]);
    return (variant as dbus.Variant).value;
  }

  /** The applications registered on the desktop, as the registry's root lists them. */
  async applications(): Promise<AccessibleRef[]> {
    const [children] = await this.call(REGISTRY_BUS, ROOT_PATH, ACCESSIBLE_IFACE, 'GetChildren');
    return (children as [string, string][]).map(([busName, path]) => ({ busName, path }));
  }

  /**
   * Every object an application exposes, in one call. atk-bridge serves its Cache only after it has seen
   * a client register for events while it runs; an app started after our registration has not, so the
   * registration is sent again (the registry's EventListenerRegistered reaches the app) and the read retried.
   */
  async cacheItems(busName: string): Promise<CacheItem[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        const [items] = await this.call(busName, CACHE_PATH, 'org.a11y.atspi.Cache', 'GetItems');
        return (items as RawCacheItem[]).map(cacheItemOf);
      } catch (error) {
        if (attempt >= CACHE_ATTEMPTS || !isUnknownMethod(error)) throw error;
        await this.call(REGISTRY_BUS, REGISTRY_PATH, 'org.a11y.atspi.Registry', 'RegisterEvent', 's', [
          EVENTS[0],
        ]);
      }
    }
  }

  /** Listens to every AT-SPI signal on the bus; returns an unsubscribe. */
  onSignal(listener: (signal: AtspiSignal) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }

  disconnect(): void {
    this.#closed = true;
    this.#signalListeners.clear();
    this.#bus.disconnect();
  }
}

const CACHE_ATTEMPTS = 5;

function isUnknownMethod(error: unknown): boolean {
  const cause = (error as { cause?: { type?: string } }).cause;
  return cause?.type === 'org.freedesktop.DBus.Error.UnknownMethod';
}

type RawRef = [string, string];
type RawCacheItem = [
  RawRef,
  RawRef,
  RawRef,
  number,
  number,
  string[],
  string,
  number,
  string,
  [number, number],
];

function refOf([busName, path]: RawRef): AccessibleRef {
  return { busName, path };
}

function cacheItemOf(item: RawCacheItem): CacheItem {
  const [ref, app, parent, indexInParent, childCount, interfaces, name, role, description, states] = item;
  return {
    ref: refOf(ref),
    app: refOf(app),
    parent: refOf(parent),
    indexInParent,
    childCount,
    interfaces,
    name,
    role,
    description,
    states: [states[0] ?? 0, states[1] ?? 0],
  };
}
