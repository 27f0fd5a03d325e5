import type { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { _electron } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { observeContextListenerRejections } from './context-listener-rejections.js';

const CONTEXT_CREATED = 'Runtime.executionContextCreated';
/** Playwright's in-process server object of `_electron`: an SdkObject, as its CDP sessions are. */
const server = (
  _electron as unknown as { _connection: { toImpl(object: unknown): EventEmitter } }
)._connection.toImpl(_electron);
const unheard = vi.fn();

afterEach(() => {
  process.off('unhandledRejection', unheard);
  server.removeAllListeners(CONTEXT_CREATED);
});

describe('observeContextListenerRejections', () => {
  it("hears the rejection of an async listener of the context event, as Playwright's Electron app registers one", async () => {
    observeContextListenerRejections();
    observeContextListenerRejections();
    process.on('unhandledRejection', unheard);
    const heard: unknown[] = [];
    const listener = async (event: unknown) => {
      heard.push(event);
      throw new Error('Protocol error (Runtime.evaluate): Cannot find context with specified id');
    };
    server.on(CONTEXT_CREATED, listener);

    server.emit(CONTEXT_CREATED, { context: { id: 1, auxData: { isDefault: true } } });
    await nextTurn();
    await nextTurn();

    expect(heard).toEqual([{ context: { id: 1, auxData: { isDefault: true } } }]);
    expect(unheard).not.toHaveBeenCalled();
    // Wrapped once however often it is installed, and still removed by the listener it was given.
    expect(server.listenerCount(CONTEXT_CREATED)).toBe(1);
    server.removeListener(CONTEXT_CREATED, listener);
    expect(server.listenerCount(CONTEXT_CREATED)).toBe(0);
  });

  it('leaves the listeners of other events unwrapped', () => {
    observeContextListenerRejections();
    const onClose = () => undefined;
    server.on('close', onClose);
    expect(server.rawListeners('close')).toContain(onClose);
    server.removeListener('close', onClose);
  });
});
