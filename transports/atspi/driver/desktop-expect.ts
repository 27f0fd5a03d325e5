import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { expectationFailed, type MatchedValue, regexHeld, satisfies } from '../../contract/matcher.js';
import type { ExpectationResult, ExpectKind, Matcher, TargetQuery } from '../../contract/window-driver.js';
import { hasState, isDisabled, isShown } from '../tree/atspi-states.js';
import { controlValue } from '../tree/desktop-snapshot.js';
import type { TreeNode } from '../tree/tree-read.js';
import { matchesOf, type WindowReads } from './desktop-targets.js';

/** What a node shows as text: a field's text (a secret's redacted), else its name, else its content's. */
export async function textOf(reads: WindowReads, node: TreeNode): Promise<string> {
  if (node.role === 'textbox') return (await controlValue(reads.bus, node, reads.secrets)) ?? '';
  if (node.name) return node.name;
  const parts: string[] = [];
  const visit = (child: TreeNode) => {
    if (child.name) parts.push(child.name);
    else for (const grandchild of child.children) visit(grandchild);
  };
  for (const child of node.children) visit(child);
  return parts.join(' ');
}

async function readActual(
  reads: WindowReads,
  kind: ExpectKind,
  target: TargetQuery | undefined,
): Promise<MatchedValue> {
  const tree = await reads.read();
  if (kind === 'TITLE') return tree.root.ownName;
  // As the page engine's expectations do, a target that cannot be resolved now (a ref gone, an ambiguous
  // `within`) reads as nothing matching; only a target the transport refuses outright fails at once.
  const found = target
    ? await matchesOf(reads, tree, target).catch((error: unknown) => {
        if ((error as StagegraphError).code === 'BAD_INPUT') throw error;
        return [];
      })
    : [];
  const node = found.length === 1 ? found[0] : undefined;
  switch (kind) {
    case 'COUNT':
      return found.length;
    case 'VISIBLE':
      return node ? isShown(node.states, false) : false;
    case 'HIDDEN':
      return node ? !isShown(node.states, false) : true;
    case 'ENABLED':
      return node ? !isDisabled(node.states) : false;
    case 'DISABLED':
      return node ? isDisabled(node.states) : false;
    case 'CHECKED':
      return node ? hasState(node.states, 'CHECKED') : false;
    case 'TEXT':
      return node ? textOf(reads, node) : '';
    case 'VALUE':
      return node ? ((await controlValue(reads.bus, node, reads.secrets)) ?? '') : '';
    case 'URL':
      throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'A desktop window has no URL to expect.');
  }
}

/**
 * Waits until the expectation holds, re-reading the window each time the app sends an AT-SPI signal (a
 * state, text, name or children change) — never on a timer — bounded by `timeoutMs`. Fails with
 * EXPECTATION_FAILED carrying the last actual value, as the page engine does. Several matches of the
 * target read as none for everything but COUNT (the page engine's AMBIGUOUS_TARGET is not raised here).
 */
export async function waitForExpectation(
  reads: WindowReads,
  kind: ExpectKind,
  matcher: Matcher,
  target: TargetQuery | undefined,
  timeoutMs: number,
): Promise<ExpectationResult> {
  if (kind === 'URL')
    throw new StagegraphError('CAPABILITY_UNSUPPORTED', 'A desktop window has no URL to expect.');
  const started = Date.now();
  let actual: MatchedValue = '';
  for (;;) {
    const seen = reads.changes();
    actual = await readActual(reads, kind, target);
    if (satisfies(actual, matcher, await regexHeld(actual, matcher)))
      return { actual: String(actual), elapsedMs: Date.now() - started };
    const remaining = timeoutMs - (Date.now() - started);
    if (remaining <= 0) break;
    await reads.nextChange(seen, remaining);
  }
  throw expectationFailed(kind, matcher, actual, timeoutMs);
}
