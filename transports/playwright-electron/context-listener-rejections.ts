import { EventEmitter } from 'node:events';
import { _electron } from 'playwright-core';

/** The CDP event whose async listener Playwright's ElectronApplication leaves unobserved. */
const CONTEXT_CREATED = 'Runtime.executionContextCreated';
/** Marks the prototype once observed, so that a second transport does not wrap the wrapper. */
const OBSERVED = Symbol.for('stagegraph.observedContextListeners');

type Listener = (...args: unknown[]) => unknown;

/**
 * Playwright's ElectronApplication (coreBundle.js, `packages/playwright-core/src/server/electron/electron.ts`)
 * listens for the main process's first execution context with an async function that evaluates
 * `require('electron')` there. EventEmitter drops the promise such a listener returns, so when the app dies
 * during its launch — a main script that throws, a burst of launches on a loaded machine — that evaluate
 * rejects ("Cannot find context with specified id", "session closed") with nobody to hear it, and Node ends
 * the gateway for an unhandled rejection. The launch itself fails on its own, with the app's reason, so the
 * rejection carries nothing a caller needs: it is observed where it is made, by wrapping the listeners of
 * that one event as Playwright's server objects register them (they all derive from SdkObject, an
 * EventEmitter reached here through the in-process server object of `_electron`). A listener that returns no
 * promise is called as before; removing a listener still works (EventEmitter matches `.listener`, as for
 * `once`). Where Playwright does not run its server in this process, or its shape has changed, nothing is
 * wrapped and the server's last-resort guard (server/stray-errors.ts) still keeps serving.
 */
export function observeContextListenerRejections(): void {
  const sdkObject = sdkObjectPrototype();
  if (!sdkObject || Object.hasOwn(sdkObject, OBSERVED)) return;
  const on = EventEmitter.prototype.on;
  Object.defineProperties(sdkObject, {
    [OBSERVED]: { value: true },
    on: {
      configurable: true,
      writable: true,
      value(this: EventEmitter, event: string | symbol, listener: Listener) {
        if (event !== CONTEXT_CREATED || typeof listener !== 'function')
          return on.call(this, event, listener);
        const observed = Object.assign(
          function (this: unknown, ...args: unknown[]) {
            const result = listener.apply(this, args);
            if (result instanceof Promise) result.catch(() => undefined);
            return result;
          },
          { listener },
        );
        return on.call(this, event, observed);
      },
    },
  });
}

/** SdkObject.prototype: the prototype of the prototype of Playwright's server-side Electron object. */
function sdkObjectPrototype(): object | undefined {
  const client = _electron as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } };
  let server: unknown;
  try {
    server = client._connection?.toImpl?.(_electron);
  } catch {
    return undefined;
  }
  if (typeof server !== 'object' || server === null) return undefined;
  const sdkObject = Object.getPrototypeOf(Object.getPrototypeOf(server)) as object | null;
  return sdkObject && Object.getPrototypeOf(sdkObject) === EventEmitter.prototype ? sdkObject : undefined;
}
