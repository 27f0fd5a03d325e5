/**
 * Longest link target an outline shows. Real hrefs are mostly short paths; the long ones are data: URLs
 * and tracking parameters, which cost many tokens and rarely decide what an agent does.
 */
export const MAX_LINK_CHARS = 100;

/**
 * Where a link goes, as short as stays unambiguous from the page it is on: `#part` on the same page,
 * `/path?query#part` on the same origin, the whole URL elsewhere; cut to MAX_LINK_CHARS (then "…").
 */
export function linkTarget(url: string, pageUrl: string): string {
  const target = relativeTo(url, pageUrl);
  return target.length > MAX_LINK_CHARS ? `${target.slice(0, MAX_LINK_CHARS)}…` : target;
}

function relativeTo(url: string, pageUrl: string): string {
  let link: URL;
  let page: URL;
  try {
    link = new URL(url);
    page = new URL(pageUrl);
  } catch {
    return url;
  }
  // Protocol and host rather than origin: file: URLs have an opaque origin, and most test pages are files.
  if (link.protocol !== page.protocol || link.host !== page.host || link.username !== page.username)
    return url;
  const samePage = link.pathname === page.pathname && link.search === page.search;
  if (samePage && link.hash !== '') return link.hash;
  return link.pathname + link.search + link.hash;
}
