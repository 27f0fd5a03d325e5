import { useEffect, useState } from 'preact/hooks';

/** Where the page is, kept in the URL's fragment: only ids, never a token. */
export type Route =
  | { name: 'sessions' }
  | { name: 'session'; sessionId: string }
  | { name: 'approvals' }
  | { name: 'audit' };

export function routeFromHash(hash: string): Route {
  const [section, id] = hash.replace(/^#\/?/, '').split('/');
  if (section === 'sessions' && id) return { name: 'session', sessionId: decodeURIComponent(id) };
  if (section === 'approvals') return { name: 'approvals' };
  if (section === 'audit') return { name: 'audit' };
  return { name: 'sessions' };
}

export function sessionHref(sessionId: string): string {
  return `#/sessions/${encodeURIComponent(sessionId)}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeFromHash(location.hash));
  useEffect(() => {
    const changed = () => setRoute(routeFromHash(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
