import { fileURLToPath } from 'node:url';
import { StagegraphError } from '../../errors/stagegraph-error.js';
import { confineUploadPaths } from './upload-paths.js';

/** The schemes navigate goes to: the web's, the file system's (confined), and the empty page. */
const WEB_SCHEMES = new Set(['http:', 'https:']);
const EMPTY_PAGE = 'about:blank';

/**
 * The URL a navigation may go to, or a refusal with its own code. `javascript:` runs code in the page,
 * which the server offers only as evalRenderer behind --allow-eval and a policy that weighs it as code,
 * so navigate never does. Other schemes (`chrome:`, `data:`, `mailto:`, an app's own protocol) reach
 * browser internals, documents no policy can read, or the OS. A `file:` URL shows a file's content to
 * whoever reads the window next, so it must lie under the roots the server lets agents hand the app
 * (`--upload-root`), as upload paths must.
 */
export async function navigableUrl(input: string, allowedRoots: readonly string[]): Promise<string> {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new StagegraphError('URL_INVALID', `${JSON.stringify(input)} is not an absolute URL.`, {
      details: { url: input },
    });
  }
  if (WEB_SCHEMES.has(url.protocol)) return url.href;
  if (url.href === EMPTY_PAGE) return url.href;
  if (url.protocol === 'file:') {
    if (url.host !== '') throw refused(input, 'file URLs on another host are not local files');
    await confineUploadPaths([fileURLToPath(url)], allowedRoots);
    return url.href;
  }
  throw refused(
    input,
    url.protocol === 'javascript:'
      ? 'javascript: URLs run code in the page'
      : `${url.protocol} is not navigable`,
  );
}

function refused(input: string, why: string): StagegraphError {
  return new StagegraphError(
    'URL_SCHEME_REFUSED',
    `Refused to navigate to ${JSON.stringify(input)}: ${why}.`,
    {
      details: { url: input },
    },
  );
}
