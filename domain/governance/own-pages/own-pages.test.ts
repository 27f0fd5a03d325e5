import { describe, expect, it } from 'vitest';
import { StagegraphError } from '../../../errors/stagegraph-error.js';
import { NOT_ON_OWN_PAGES_RULE, OwnPages, refusedOwnPage } from './own-pages.js';

describe('OwnPages', () => {
  it('holds nothing before the server listens', () => {
    expect(new OwnPages().holds('http://127.0.0.1:4000/')).toBe(false);
  });

  it('holds, on its port, every name the request guard lets through for this machine', () => {
    const pages = new OwnPages();
    pages.serveAt(4000, '127.0.0.1');
    for (const url of [
      'http://127.0.0.1:4000/',
      'http://localhost:4000/#/approvals',
      'http://LOCALHOST.:4000/',
      'http://[::1]:4000/graphql',
      'ws://[::1]:4000/graphql',
      'http://127.1.2.3:4000/',
      'http://2130706433:4000/',
      'http://0x7f.1:4000/',
      'http://stagegraph.localhost:4000/',
      'http://a.b.localhost.:4000/',
      'http://[::ffff:127.0.0.1]:4000/',
      'http://0.0.0.0:4000/',
      'http://[::]:4000/',
      'http://127.0.0.1:4000/observer/app.js:1:2345',
    ])
      expect(pages.holds(url), url).toBe(true);
    for (const url of [
      'http://127.0.0.1:4001/',
      'http://localhost:3000/',
      'http://example.com:4000/',
      'http://localhost.example.com:4000/',
      'http://[::ffff:10.0.0.1]:4000/',
      'http://10.0.0.1:4000/',
      'file:///index.html',
      'app://stagegraph/index.html',
      'not a url',
      null,
      undefined,
    ])
      expect(pages.holds(url), String(url)).toBe(false);
  });

  it('holds the address it binds on its port, and --allowed-host names on any port (behind a proxy)', () => {
    const pages = new OwnPages();
    pages.serveAt(4000, '192.168.1.20', ['Gateway.Internal']);
    expect(pages.holds('http://192.168.1.20:4000/')).toBe(true);
    expect(pages.holds('http://192.168.1.20:3000/'), 'an app served from the same address').toBe(false);
    expect(pages.holds('https://gateway.internal/')).toBe(true);
    expect(pages.holds('http://GATEWAY.INTERNAL:8080/')).toBe(true);
  });

  it('holds any host name on its port when bound to every interface', () => {
    const pages = new OwnPages();
    pages.serveAt(80, '0.0.0.0');
    expect(pages.holds('http://desk-17.lan/')).toBe(true);
    expect(pages.holds('http://desk-17.lan:8080/')).toBe(false);
  });

  it('refuses one of its windows with POLICY_DENIED naming the built-in rule, and nothing else', () => {
    const pages = new OwnPages();
    pages.serveAt(4000, '127.0.0.1');
    expect(pages.refusal('s1', { id: 'w1', url: 'http://127.0.0.1:3000/' })).toBeNull();
    const refusal = pages.refusal('s1', { id: 'w2', url: 'http://localhost:4000/#/approvals' });
    expect(refusal).toBeInstanceOf(StagegraphError);
    expect(refusal).toMatchObject({
      code: 'POLICY_DENIED',
      details: {
        rule: NOT_ON_OWN_PAGES_RULE,
        window: { id: 'w2', url: 'http://localhost:4000/#/approvals' },
      },
    });
    expect(refusal?.nextActions[0]).toContain('windows { id title url }');
    expect(refusedOwnPage(refusal)).toEqual({ id: 'w2', url: 'http://localhost:4000/#/approvals' });
    expect(refusedOwnPage(new StagegraphError('POLICY_DENIED', 'another rule'))).toBeNull();
    expect(refusedOwnPage(new Error('x'))).toBeNull();
    expect(pages.originRefusal('s1', 'http://127.0.0.1:4000', 'read')).toMatchObject({
      code: 'POLICY_DENIED',
      details: { rule: { id: 'built-in:not-on-own-pages' }, origin: 'http://127.0.0.1:4000' },
    });
    expect(pages.originRefusal('s1', 'null', 'read')).toBeNull();
  });
});
