import { timingSafeEqual } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { ERROR_CODES } from '../errors/registry.js';

/** Compares in constant time so response timing does not reveal how much of a guess was right. */
export function tokenMatches(expected: string, presented: string | undefined | null): boolean {
  if (!presented) return false;
  const bearer = presented.startsWith('Bearer ') ? presented.slice('Bearer '.length) : presented;
  const a = Buffer.from(expected);
  const b = Buffer.from(bearer);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const UNAUTHENTICATED_BODY = JSON.stringify({
  errors: [
    {
      message: 'Missing or wrong token.',
      extensions: {
        code: 'UNAUTHENTICATED',
        hint: ERROR_CODES.UNAUTHENTICATED.hint,
        retryable: false,
        nextActions: [],
      },
    },
  ],
});

/**
 * Refuses every HTTP GraphQL request without the token, with 401 and a registered code. The GraphiQL
 * page itself (a GET for HTML) is served so a person can paste the token into its headers tab.
 */
export function useTokenAuth(token: string | undefined): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      if (!token) return;
      const wantsPage =
        request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
      if (wantsPage || tokenMatches(token, request.headers.get('authorization'))) return;
      endResponse(
        new fetchAPI.Response(UNAUTHENTICATED_BODY, {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
        }),
      );
    },
  };
}
