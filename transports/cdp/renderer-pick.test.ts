import { describe, expect, it } from 'vitest';
import { pickRenderer } from './renderer-pick.js';

const windows = [
  { id: 'w1', title: 'DevTools', url: 'https://example.com/' },
  { id: 'w2', title: 'Blank', url: 'about:blank' },
  { id: 'w3', title: 'Dev server', url: 'http://localhost:5173/' },
  { id: 'w4', title: 'Packaged', url: 'file:///opt/app/index.html' },
  { id: 'w5', title: 'Second packaged', url: 'file:///opt/app/second.html' },
];

describe('pickRenderer', () => {
  it('prefers app://, then file://, then localhost, then other pages, first opened on a tie', () => {
    expect(pickRenderer(windows, {})?.id).toBe('w4');
    expect(pickRenderer([...windows, { id: 'w6', title: 'App', url: 'app://main/' }], {})?.id).toBe('w6');
    expect(pickRenderer(windows.slice(0, 3), {})?.id).toBe('w3');
    expect(pickRenderer(windows.slice(0, 2), {})?.id).toBe('w1');
  });

  it('narrows by title and url before ranking, and finds nothing when nothing matches', () => {
    expect(pickRenderer(windows, { titleContains: 'Second' })?.id).toBe('w5');
    expect(pickRenderer(windows, { urlIncludes: 'example.com' })?.id).toBe('w1');
    expect(pickRenderer(windows, { titleContains: 'Blank', urlIncludes: 'localhost' })).toBeUndefined();
    expect(pickRenderer([], {})).toBeUndefined();
  });
});
