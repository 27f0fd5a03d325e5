/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { AmbiguityDetails, TargetSpec } from '../../contract/window-driver.js';
import { decodeNode, type NodeTuple } from '../snapshot/encoding.js';
import { ENGINE_GLOBAL, type Engine } from '../snapshot/install.js';
import { currentDocumentId } from '../snapshot/page-snapshot.js';

/** Candidates named in an AMBIGUOUS_TARGET error; enough to choose, short enough to read. */
export const AMBIGUITY_LISTING = 10;

/**
 * AMBIGUOUS_TARGET for a locator matching `count` elements: the first AMBIGUITY_LISTING of them described
 * by the snapshot walker (role, name and a key it registers), read in one round trip, so the caller's next
 * call can name one of them by ref instead of guessing an `nth`.
 */
export async function ambiguousTarget(
  page: Page,
  locator: Locator,
  spec: TargetSpec,
  count: number,
  what: string,
): Promise<StagegraphError> {
  let described = await describeMatches(locator);
  // The walker installs itself on a document's first snapshot; a target may be resolved before one.
  if (described === null) {
    await currentDocumentId(page);
    described = await describeMatches(locator);
  }
  const entries = described ?? [];
  return ambiguityError(count, entries[0]?.documentId ?? '', entries, spec, what);
}

/** The one AMBIGUOUS_TARGET a transport raises: the count, and the candidates as the walker described them. */
export function ambiguityError(
  count: number,
  documentId: string,
  described: readonly { readonly node: NodeTuple; readonly testId: string | null }[],
  spec: TargetSpec,
  what: string,
): StagegraphError {
  const details: AmbiguityDetails = {
    count,
    documentId,
    candidates: described.map(({ node, testId }) => ({ node: decodeNode(node), testId })),
  };
  return new StagegraphError('AMBIGUOUS_TARGET', `${count} elements match ${what}; give \`nth\` or a ref.`, {
    details: { ...details, target: spec },
  });
}

interface DescribedMatch {
  readonly documentId: string;
  readonly node: NodeTuple;
  readonly testId: string | null;
}

function describeMatches(locator: Locator): Promise<DescribedMatch[] | null> {
  return locator.evaluateAll(
    (elements, { global, limit }) => {
      const described: DescribedMatch[] = [];
      for (const element of elements.slice(0, limit)) {
        const top = element.ownerDocument.defaultView?.top ?? window;
        const engine = (top as unknown as Record<string, Engine | undefined>)[global];
        if (!engine || engine.root !== top.document.documentElement) return null;
        const { documentId, node } = JSON.parse(engine.walker.describe(element)) as DescribedMatch;
        described.push({ documentId, node, testId: element.getAttribute('data-testid') });
      }
      return described;
    },
    { global: ENGINE_GLOBAL, limit: AMBIGUITY_LISTING },
  );
}
