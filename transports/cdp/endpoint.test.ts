import { describe, expect, it } from 'vitest';
import { announcedHost } from './endpoint.js';

const line = (host: string, port: number) =>
  `[1128/105000.000:WARNING] something first\nDevTools listening on ws://${host}:${port}/devtools/browser/26bda450-2d98\n`;

describe('announcedHost', () => {
  it('reads the loopback address Chromium says its DevTools server listens on, IPv4 or IPv6', () => {
    expect(announcedHost(line('127.0.0.1', 43761), 43761)).toBe('127.0.0.1');
    expect(announcedHost(line('[::1]', 43761), 43761)).toBe('::1');
  });

  it('is null before the line, for another port, and for a host that is not loopback', () => {
    expect(announcedHost('starting…\n', 43761)).toBeNull();
    expect(announcedHost(line('[::1]', 43762), 43761)).toBeNull();
    expect(announcedHost(line('0.0.0.0', 43761), 43761)).toBeNull();
    expect(announcedHost(line('192.168.1.20', 43761), 43761)).toBeNull();
  });
});
