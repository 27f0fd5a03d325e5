import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TargetQuery, TargetSpec } from '../../transports/contract/window-driver.js';
import { parseSelector, type Selector } from './selector/parser.js';

/** A target as clients give it: exactly one way of naming the element, optionally narrowed. */
export interface TargetRequest {
  readonly ref?: string | null;
  readonly selector?: string | null;
  readonly testId?: string | null;
  readonly role?: string | null;
  readonly name?: string | null;
  readonly text?: string | null;
  /** A query selector (`role=button name="Save"`, `A >> B`, `X right-of Y`, `A ?? B`), resolved in the domain. */
  readonly query?: string | null;
  /** For `role` + `name` and `text`: whole-string, case-sensitive match (default true for names, false for text). */
  readonly exact?: boolean | null;
  readonly nth?: number | null;
  readonly within?: TargetRequest | null;
}

/** Where a ref points: the walker's key in one document of one window. */
export interface RefLocation {
  readonly windowId: string;
  readonly documentId: string;
  readonly key: number;
}

export interface ResolvedTargetRequest {
  readonly query: TargetQuery;
  /** The window a ref (here or in `within`) pins the target to; undefined when no ref is involved. */
  readonly windowId: string | undefined;
}

const WAYS = ['ref', 'selector', 'testId', 'role', 'text', 'query'] as const;

/**
 * A `query` target's parsed selector, or null for the other ways. It is resolved over the window's snapshot
 * (selector/resolve.ts) rather than handed to a transport, so it takes no `within` (`A >> B` says that) and
 * nests in no other target's `within`.
 */
export function querySelectorOf(request: TargetRequest): Selector | null {
  if (request.query == null) return null;
  assertOneWay(request);
  if (request.within != null) {
    throw new StagegraphError(
      'BAD_INPUT',
      'A `query` target takes no `within`; say it in the query: `A >> B`.',
    );
  }
  if (request.exact != null) {
    throw new StagegraphError(
      'BAD_INPUT',
      'A `query` target takes no `exact`: `name=` is exact, `name~=` contains.',
    );
  }
  if (request.nth != null && request.nth < 0) {
    throw new StagegraphError('BAD_INPUT', `nth is zero-based and cannot be ${request.nth}.`);
  }
  return parseSelector(request.query);
}

/** Validates a client's target and turns refs into document keys; mistakes are BAD_INPUT naming the fix. */
export function toTargetQuery(
  request: TargetRequest,
  resolveRef: (ref: string) => RefLocation,
): ResolvedTargetRequest {
  assertOneWay(request);
  if (request.query != null) {
    throw new StagegraphError(
      'BAD_INPUT',
      'A `query` target names one element of its window and cannot sit inside another target.',
      { hint: 'Put the scope in the query itself: `A >> B`.' },
    );
  }
  if (request.nth != null && request.nth < 0) {
    throw new StagegraphError('BAD_INPUT', `nth is zero-based and cannot be ${request.nth}.`);
  }
  const within = request.within ? toTargetQuery(request.within, resolveRef) : undefined;
  const { spec, windowId } = specOf(request, resolveRef);
  if (within?.windowId && windowId && within.windowId !== windowId) {
    throw new StagegraphError('BAD_INPUT', 'The target and its `within` name refs of different windows.');
  }
  return {
    query: {
      spec,
      ...(request.nth == null ? {} : { nth: request.nth }),
      ...(within ? { within: within.query } : {}),
    },
    windowId: windowId ?? within?.windowId,
  };
}

function assertOneWay(request: TargetRequest): void {
  if (request.name != null && request.role == null) {
    throw new StagegraphError('BAD_INPUT', '`name` narrows a `role` target; give `role` too.', {
      hint: 'For example `{ role: "button", name: "Save" }`, or use `text` to match visible text.',
    });
  }
  const given = WAYS.filter((way) => request[way] != null && request[way] !== '');
  if (given.length !== 1) {
    throw new StagegraphError(
      'BAD_INPUT',
      given.length === 0
        ? 'A target needs one of ref, selector, testId, role (with an optional name), text or query.'
        : `A target takes one of ref, selector, testId, role, text or query; got ${given.join(' and ')}.`,
      { hint: 'Prefer a ref from a snapshot: `{ ref: "e12" }`.' },
    );
  }
}

function specOf(
  request: TargetRequest,
  resolveRef: (ref: string) => RefLocation,
): { spec: TargetSpec; windowId?: string } {
  const exact = request.exact == null ? {} : { exact: request.exact };
  if (request.ref) {
    const location = resolveRef(request.ref);
    return {
      spec: { kind: 'key', key: location.key, ref: request.ref, documentId: location.documentId },
      windowId: location.windowId,
    };
  }
  if (request.selector) return { spec: { kind: 'selector', selector: request.selector } };
  if (request.testId) return { spec: { kind: 'testId', testId: request.testId } };
  if (request.role) {
    return {
      spec: {
        kind: 'role',
        role: request.role,
        ...(request.name == null ? {} : { name: request.name }),
        ...exact,
      },
    };
  }
  return { spec: { kind: 'text', text: request.text ?? '', ...exact } };
}
