import { createAgentCore } from '../main-agent/agent-core.js';
import { installIpcHooks } from '../main-agent/ipc-hooks.js';
import { STORE } from '../main-agent/main-inspector.js';
import { installMenuHooks } from '../main-agent/menu-hooks.js';
import { installNotificationHooks } from '../main-agent/notification-hooks.js';
import { AGENT_KEY } from '../main-agent/shapes.js';
import { INJECT_AGENT_KEY, installInjectAgent } from './inject-agent.js';

/** esbuild may wrap named functions in `__name(...)`; shipped source brings a stand-in along. */
const NAME_HELPER = 'var __name = (target) => target;';
const INJECT_AGENT = `globalThis[Symbol.for(${JSON.stringify(INJECT_AGENT_KEY)})]`;
const NATIVE_AGENT = `globalThis[Symbol.for(${JSON.stringify(AGENT_KEY)})]`;

/** Installs the inject agent, connected to the gateway's channel `{ port, token }`, replacing an older one. */
export function injectAgentSource(): string {
  return `(electron, channel) => {
  ${NAME_HELPER}
  if (${INJECT_AGENT}) void ${INJECT_AGENT}.release();
  ${INJECT_AGENT} = (${installInjectAgent})(electron, ${STORE}.net, channel);
  return true;
}`;
}

/** A fixed call on the inject agent: `body` is an expression over `agent` and `arg`. */
export function injectCallSource(body: string): string {
  return `(electron, arg) => { ${NAME_HELPER} const agent = ${INJECT_AGENT}; return ${body}; }`;
}

/** Releases the inject agent and forgets it. */
export function injectReleaseSource(): string {
  return `() => { const agent = ${INJECT_AGENT}; if (!agent) return true; delete ${INJECT_AGENT}; return agent.release().then(() => true); }`;
}

/**
 * The native hooks an injected app can take without changing what its user sees: menus (read, click,
 * context menus seen), notifications and IPC are observed. Native dialogs are not hooked — their hooks
 * answer every dialog by policy, which would take the app's dialogs away from its user for good. A native
 * agent already there (an app Stagegraph launched) is kept. Answers whether trays are known (never here).
 */
export function injectedNativeHooksSource(): string {
  return `(electron) => {
  ${NAME_HELPER}
  if (${NATIVE_AGENT}) return ${NATIVE_AGENT}.instrumented;
  const core = (${createAgentCore})();
  const menus = (${installMenuHooks})(electron, core);
  (${installNotificationHooks})(electron, core);
  const ipc = (${installIpcHooks})(electron, core);
  ${NATIVE_AGENT} = { core, menus, dialogs: null, ipc, trays: null, instrumented: false };
  return false;
}`;
}
