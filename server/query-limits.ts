import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { toGraphQLError } from './error-format.js';
import { MAX_QUERY_COST, MAX_QUERY_DEPTH } from './request-limits.js';

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
