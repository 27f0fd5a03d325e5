import { createAgentCore } from './agent-core.js';
import { installDialogHooks } from './dialog-hooks.js';
import { runUserCode } from './eval-body.js';
import { installIpcHooks } from './ipc-hooks.js';
import { installMenuHooks } from './menu-hooks.js';
import { installNotificationHooks } from './notification-hooks.js';
import { AGENT_KEY } from './shapes.js';
import { installTrayHooks } from './tray-hooks.js';

/**
 * esbuild (tsx, vitest) may wrap named functions in `__name(...)` calls that only exist in the module that
 * compiled them; shipped source brings a stand-in along so it runs anywhere.
 */
const NAME_HELPER = 'var __name = (target) => target;';
const AGENT = `globalThis[Symbol.for(${JSON.stringify(AGENT_KEY)})]`;

/**
 * The whole main-process agent as one function source `(electron, { instrumented }) => agent`: the fixed
 * hooks, written once here and run unchanged in the app. Installing twice returns the first agent.
 */
export function agentInstallerSource(): string {
  return `(electron, options) => {
  ${NAME_HELPER}
  if (${AGENT}) return ${AGENT};
  const core = (${createAgentCore})();
  const menus = (${installMenuHooks})(electron, core);
  (${installNotificationHooks})(electron, core);
  const dialogs = (${installDialogHooks})(electron, core);
  const ipc = (${installIpcHooks})(electron, core);
  const trays = options.instrumented ? (${installTrayHooks})(electron, menus.serialize) : null;
  ${AGENT} = { core, menus, dialogs, ipc, trays, instrumented: Boolean(options.instrumented) };
  return ${AGENT};
}`;
}

/** Installs the agent late (after the app's main ran) and answers whether it was there from the start. */
export function lateInstallSource(): string {
  return `(electron) => (${agentInstallerSource()})(electron, { instrumented: false }).instrumented`;
}

/** A fixed call on the installed agent: `body` is an expression over `agent` and `arg`. */
export function agentCallSource(body: string): string {
  return `(electron, arg) => { ${NAME_HELPER} const agent = ${AGENT}; return ${body}; }`;
}

/** User code (a function expression) wrapped so its result is checked for plain JSON where it ran. */
export function userCodeSource(code: string, target: 'main' | 'renderer'): string {
  const parameters = target === 'main' ? 'electron, arg' : 'arg';
  const args = target === 'main' ? '[electron, arg]' : '[arg]';
  // The code is compiled as part of this source, not by eval() at run time: a page's CSP forbids eval.
  return `async (${parameters}) => { ${NAME_HELPER} const user = (\n${code}\n); return (${runUserCode})(user, ${args}); }`;
}
