import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { toGraphQLError } from './error-format.js';

/**
 * session → window → snapshot → node is four levels; twelve leave room to walk `parent` / `children` a
 * good way. A client that needs more of the tree should ask for a flat snapshot, not nest a document.
 */
export const MAX_QUERY_DEPTH = 12;
/**
 * graphql-armor's static cost (objects 2, scalars 1, ×1.5 per level, × `first`). The largest legitimate
 * read, a full page of audit records (`first: 500`) with every field, costs about 76,000; a document past
 * this is built to exhaust the server (thousands of aliased fields), not to read it.
 */
export const MAX_QUERY_COST = 100_000;

/**
 * Rejects over-deep and over-costly documents at validation, over HTTP and graphql-ws alike (both run
 * yoga's validate), with QUERY_TOO_COMPLEX and its guidance instead of graphql-armor's bare message.
 */
export function useQueryLimits(): Plugin[] {
  const onReject = [
    (context: ValidationContext | null, error: GraphQLError) => {
      const message = error.message.replace(/^Syntax Error: /, '');
      context?.reportError(toGraphQLError(new StagegraphError('QUERY_TOO_COMPLEX', message)));
    },
  ];
  return [
    maxDepthPlugin({ n: MAX_QUERY_DEPTH, onReject, propagateOnRejection: false }),
    costLimitPlugin({ maxCost: MAX_QUERY_COST, onReject, propagateOnRejection: false }),
  ] as Plugin[];
}
