import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { navigableUrl } from './navigation-url.js';

const base = mkdtempSync(join(tmpdir(), 'stagegraph-navigate-'));
const root = join(base, 'root');
mkdirSync(root);
writeFileSync(join(root, 'page.html'), '<h1>ok</h1>');
writeFileSync(join(base, 'outside.html'), '<h1>outside</h1>');

describe('the URLs navigate goes to', () => {
  it.each([
    ['https://example.com/a?b#c', 'https://example.com/a?b#c'],
    ['  http://127.0.0.1:8080  ', 'http://127.0.0.1:8080/'],
    ['about:blank', 'about:blank'],
  ])('takes %s', async (input, expected) => {
    expect(await navigableUrl(input, [root])).toBe(expected);
  });

  it('takes a file under an upload root, by its URL', async () => {
    const url = pathToFileURL(join(root, 'page.html')).href;
    expect(await navigableUrl(url, [root])).toBe(url);
  });

  it('refuses a file outside the roots with PATH_NOT_ALLOWED, as uploads are', async () => {
    const url = pathToFileURL(join(base, 'outside.html')).href;
    await expect(navigableUrl(url, [root])).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(navigableUrl(`${pathToFileURL(root).href}/../outside.html`, [root])).rejects.toMatchObject({
      code: 'PATH_NOT_ALLOWED',
    });
  });

  it.each(['example.com', '/relative/path', '', 'http//missing-colon'])(
    'refuses %j as URL_INVALID',
    async (input) => {
      await expect(navigableUrl(input, [root])).rejects.toMatchObject({ code: 'URL_INVALID' });
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:void(0)',
    'data:text/html,<script>1</script>',
    'chrome://settings',
    'about:config',
    'mailto:someone@example.com',
    'file://other-host/share/page.html',
  ])('refuses %s as URL_SCHEME_REFUSED', async (input) => {
    await expect(navigableUrl(input, [root])).rejects.toMatchObject({ code: 'URL_SCHEME_REFUSED' });
  });
});
