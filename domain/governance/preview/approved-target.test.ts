import { describe, expect, it } from 'vitest';
import type { TargetInfo } from '../request/governed-request.js';
import { TARGET_BOX_TOLERANCE_PX, targetChangedError, targetChanges } from './approved-target.js';

const draft: TargetInfo = {
  kind: 'element',
  role: 'button',
  name: 'Delete draft',
  path: ['main', 'region "Drafts"'],
  windowId: 'w1',
  bbox: { x: 10, y: 20, width: 100, height: 30 },
};

describe('targetChanges', () => {
  it('finds nothing changed in the same element, scrolled, its size nudged within the tolerance', () => {
    const nudged = { ...draft, bbox: { x: 10, y: 400, width: 100 + TARGET_BOX_TOLERANCE_PX, height: 29 } };
    expect(targetChanges(draft, { ...draft })).toEqual([]);
    expect(targetChanges(draft, nudged)).toEqual([]);
  });

  it('names each part that differs: a swapped label, another section, a resized box, another element', () => {
    expect(targetChanges(draft, { ...draft, name: 'Delete account' })).toEqual(['name']);
    expect(targetChanges(draft, { ...draft, role: 'link', path: ['main', 'region "Account"'] })).toEqual([
      'role',
      'path',
    ]);
    const wider = { ...draft, bbox: { ...draft.bbox!, width: 100 + TARGET_BOX_TOLERANCE_PX + 1 } };
    expect(targetChanges(draft, wider)).toEqual(['box']);
    expect(targetChanges(draft, { ...draft }, false)).toEqual(['element']);
    expect(targetChanges(draft, { ...draft, bbox: null })).toEqual(['box']);
    expect(targetChanges(draft, { ...draft, windowId: 'w2' })).toEqual(['window']);
  });

  it('counts a target gone, or no longer resolvable, as changed', () => {
    expect(targetChanges(draft, null)).toEqual(['presence']);
    expect(targetChanges(draft, { ...draft, previewError: 'not found within 1000 ms' })).toEqual([
      'presence',
    ]);
  });
});

describe('targetChangedError', () => {
  it('is not retryable as it is, says both targets, and offers a read of the window', () => {
    const found = { ...draft, name: 'Delete account' };
    const error = targetChangedError('click', 's1', draft, found, ['name']);
    expect(error.code).toBe('TARGET_CHANGED_AFTER_APPROVAL');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'click was approved on button "Delete draft", but just before acting the target was button "Delete account" (changed: its name); nothing was done.',
    );
    expect(error.details).toEqual({ approved: draft, found, changes: ['name'] });
    expect(error.nextActions).toEqual([
      'query { session(id: "s1") { window(id: "w1") { snapshot(interactiveOnly: true) { outline } } } }',
    ]);
  });
});
