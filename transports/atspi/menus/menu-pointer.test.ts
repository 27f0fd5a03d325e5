import { describe, expect, it } from 'vitest';
import type { NativeMenuItem } from '../../contract/native.js';
import type { AccessibleRef, AtspiBus } from '../bus/atspi-bus.js';
import { STATE } from '../tree/atspi-states.js';
import type { MenuNode } from './menu-bar.js';
import { clickThroughMenus } from './menu-pointer.js';

const SHOWING = [1 << STATE.SHOWING, 0];
const HIDDEN = [0, 0];

function node(path: string, label: string): MenuNode {
  return { item: { label } as NativeMenuItem, ref: { busName: ':1.1', path }, children: [] };
}

/**
 * A menu bar whose File menu opens on a click on File: the file menu and its items show once it is open.
 * `dropClicks` clicks are lost, as a loaded X server loses them.
 */
function menuBar(dropClicks: number) {
  let open = false;
  let dropped = 0;
  const clicks: string[] = [];
  const boxes: Record<string, [number, number]> = { '/file': [10, 0], '/save-as': [10, 40] };
  const shown = (path: string) => path === '/file' || ((path === '/menu' || path === '/save-as') && open);
  const bus = {
    call: async (_bus: string, path: string, _iface: string, member: string) => {
      if (member === 'GetState') return [shown(path) ? SHOWING : HIDDEN];
      if (member === 'GetExtents') return [[...(boxes[path] ?? [0, 0]), 20, 20]];
      throw new Error(`unexpected ${member}`);
    },
    property: async (ref: AccessibleRef, _iface: string, name: string) => {
      if (name !== 'Parent') throw new Error(`unexpected ${name}`);
      return ref.path === '/save-as' ? [':1.1', '/menu'] : [':1.1', '/bar'];
    },
  } as unknown as AtspiBus;
  const input = {
    clickAt: async (x: number, y: number) => {
      const at = Object.entries(boxes).find(([, [bx, by]]) => bx + 10 === x && by + 10 === y)?.[0] ?? '?';
      clicks.push(at);
      if (at === '/file' && dropped++ >= dropClicks) open = !open;
    },
  };
  return { bus, input, clicks };
}

describe('clickThroughMenus', () => {
  it('clicks the menu, then its item', async () => {
    const { bus, input, clicks } = menuBar(0);
    const chain = [node('/file', 'File'), node('/save-as', 'Save As...')];
    await expect(clickThroughMenus(bus, input, chain, Date.now() + 20_000)).resolves.toBe(true);
    expect(clicks).toEqual(['/file', '/save-as']);
  });

  it('clicks the menu again when the first click opened nothing, and never closes a menu that opened', async () => {
    const { bus, input, clicks } = menuBar(1);
    const chain = [node('/file', 'File'), node('/save-as', 'Save As...')];
    await expect(clickThroughMenus(bus, input, chain, Date.now() + 20_000)).resolves.toBe(true);
    expect(clicks).toEqual(['/file', '/file', '/save-as']);
  });

  it('says the menu did not open when no click opens it by the deadline', async () => {
    const { bus, input } = menuBar(Number.POSITIVE_INFINITY);
    const chain = [node('/file', 'File'), node('/save-as', 'Save As...')];
    await expect(clickThroughMenus(bus, input, chain, Date.now() + 100)).rejects.toMatchObject({
      code: 'ELEMENT_NOT_VISIBLE',
    });
  });
});
