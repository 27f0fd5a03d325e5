import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { WindowInfo } from '../../transports/contract/transport-events.js';
import { sessionActions } from './next-actions.js';

export interface WindowSelector {
  readonly id?: string | null;
  readonly titleContains?: string | null;
  readonly urlContains?: string | null;
  readonly index?: number | null;
}

/** The first window matching every given criterion, in opening order; WINDOW_NOT_FOUND otherwise. */
export function selectWindow<W extends WindowInfo>(
  sessionId: string,
  windows: readonly W[],
  selector: WindowSelector,
): W {
  const criteria = Object.entries(selector).filter(([, value]) => value !== null && value !== undefined);
  if (criteria.length === 0) {
    throw new StagegraphError(
      'BAD_INPUT',
      'A window selector needs at least one of id, titleContains, urlContains, index.',
    );
  }
  const matches = windows.filter(
    (window, index) =>
      (selector.id == null || window.id === selector.id) &&
      (selector.titleContains == null || window.title.includes(selector.titleContains)) &&
      (selector.urlContains == null || window.url.includes(selector.urlContains)) &&
      (selector.index == null || index === selector.index),
  );
  const match = matches[0];
  if (match) return match;
  throw new StagegraphError(
    'WINDOW_NOT_FOUND',
    `No open window of session ${sessionId} matches ${JSON.stringify(Object.fromEntries(criteria))}.`,
    {
      nextActions: [sessionActions.windows({ id: sessionId })],
      details: { openWindows: windows.map(({ id, title, url }) => ({ id, title, url })) },
    },
  );
}
