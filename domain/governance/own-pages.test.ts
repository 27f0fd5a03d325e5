import { describe, expect, it } from 'vitest';
import { OwnPages } from './own-pages.js';

describe('OwnPages', () => {
  it('holds nothing before the server listens', () => {
    expect(new OwnPages().holds('http://127.0.0.1:4000/')).toBe(false);
  });

  it('holds loopback and configured names on its port, nothing else', () => {
    const pages = new OwnPages();
    pages.serveAt(4000, ['127.0.0.1', 'gateway.internal']);
    for (const url of [
      'http://127.0.0.1:4000/',
      'http://localhost:4000/#/approvals',
      'http://[::1]:4000/graphql',
      'http://127.1.2.3:4000/',
      'http://Gateway.Internal:4000/',
    ])
      expect(pages.holds(url), url).toBe(true);
    for (const url of [
      'http://127.0.0.1:4001/',
      'http://example.com:4000/',
      'file:///index.html',
      'app://stagegraph/index.html',
      'not a url',
      null,
    ])
      expect(pages.holds(url), String(url)).toBe(false);
  });

  it('holds any host name on its port when bound to every interface', () => {
    const pages = new OwnPages();
    pages.serveAt(80, ['0.0.0.0']);
    expect(pages.holds('http://desk-17.lan/')).toBe(true);
  });
});
