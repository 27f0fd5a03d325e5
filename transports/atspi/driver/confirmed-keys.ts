import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { AtspiBus } from '../bus/atspi-bus.js';
import type { TreeNode } from '../tree/tree-read.js';

const TEXT_IFACE = 'org.a11y.atspi.Text';

/** The app's signals as the window driver counts them: how many so far, and a wait for the next. */
export interface SignalCount {
  changes(): number;
  /** Resolves when the app's next signal after `after` arrives, or after `timeoutMs`. */
  nextChange(after: number, timeoutMs: number): Promise<number>;
}

/** What the keys are and where they went, for the failure's message: `type "Ada" into textbox "Name"`. */
export interface SentKeys {
  readonly what: string;
  /** Typed text, confirmed only by the text node's own text or caret; keys, by any sign from the app. */
  readonly typed: boolean;
}

/**
 * Sends keys and waits for a sign the app got them. XTEST and the registry's controller both answer before
 * the app reads a key, so an answer proves nothing: keys sent to another display or a window without the
 * focus vanish and the action answered ok (issue 35). Typed text into a text node is confirmed when that
 * node's text or caret changes; other keys when the app sends any accessibility event after them (a
 * focus, state, text or window change), or the node's text or caret changes. Otherwise the action fails
 * with DESKTOP_INPUT_NOT_CONFIRMED at `deadline`.
 */
export async function sendConfirmed(
  bus: AtspiBus,
  signals: SignalCount,
  node: TreeNode | null,
  keys: SentKeys,
  deadline: number,
  send: () => Promise<void>,
): Promise<void> {
  const reads = node?.interfaces.has('Text') ? () => textAndCaret(bus, node) : null;
  const before = reads ? await reads() : null;
  const seen = signals.changes();
  await send();
  let after = seen;
  for (;;) {
    if (reads && (await reads()) !== before) return;
    if (!(keys.typed && reads) && signals.changes() !== seen) return;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new StagegraphError(
        'DESKTOP_INPUT_NOT_CONFIRMED',
        `${keys.what}: the keys were sent but the app showed no sign of them (${reads ? 'its text and caret did not change' : 'it sent no accessibility event'}).`,
      );
    }
    after = await signals.nextChange(after, remaining);
  }
}

/** The node's whole text and its caret offset, as one comparable string; '' where the node no longer answers. */
async function textAndCaret(bus: AtspiBus, node: TreeNode): Promise<string> {
  const { busName, path } = node.ref;
  const [text, caret] = await Promise.all([
    bus.call(busName, path, TEXT_IFACE, 'GetText', 'ii', [0, -1]).then(([value]) => String(value)),
    bus.property(node.ref, TEXT_IFACE, 'CaretOffset'),
  ]).catch(() => ['', -1]);
  return `${caret}:${text}`;
}
