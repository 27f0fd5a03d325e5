import { describe, expect, it } from 'vitest';
import { NEAR_PX, nearest, rankByRelation, relationDistance } from './spatial.js';

const anchor = { x: 100, y: 100, width: 50, height: 20 };
const box = (x: number, y: number, width = 40, height = 20) => ({ x, y, width, height });

describe('spatial relations', () => {
  it('right-of: starts at or after the right edge and shares a row', () => {
    expect(relationDistance('right-of', box(160, 100), anchor)).toBe(10);
    expect(relationDistance('right-of', box(150, 110), anchor)).toBe(0);
    expect(relationDistance('right-of', box(140, 100), anchor)).toBeNull(); // overlaps the anchor
    expect(relationDistance('right-of', box(160, 120), anchor)).toBeNull(); // touches below: no shared row
    expect(relationDistance('right-of', box(20, 100), anchor)).toBeNull();
  });

  it('left-of mirrors right-of', () => {
    expect(relationDistance('left-of', box(40, 100), anchor)).toBe(20);
    expect(relationDistance('left-of', box(160, 100), anchor)).toBeNull();
  });

  it('below and above need a shared column', () => {
    expect(relationDistance('below', box(100, 130), anchor)).toBe(10);
    expect(relationDistance('below', box(200, 130), anchor)).toBeNull();
    expect(relationDistance('above', box(120, 60), anchor)).toBe(20);
    expect(relationDistance('above', box(120, 130), anchor)).toBeNull();
  });

  it(`near: within ${NEAR_PX} px between nearest edges, in any direction`, () => {
    expect(relationDistance('near', box(180, 140), anchor)).toBeCloseTo(Math.hypot(30, 20));
    expect(relationDistance('near', box(110, 105, 10, 10), anchor)).toBe(0);
    expect(relationDistance('near', box(201, 100), anchor)).toBeNull();
  });

  it('ranks nearest first, skips nodes without a box, and keeps ties', () => {
    const nodes = [
      { key: 1, bbox: box(300, 100) },
      { key: 2 },
      { key: 3, bbox: box(160, 100) },
      { key: 4, bbox: box(160, 105, 0, 0) },
    ];
    const ranked = rankByRelation('right-of', nodes, anchor);
    expect(ranked.map((r) => r.node.key)).toEqual([3, 1]);
    expect(nearest(ranked).map((n) => n.key)).toEqual([3]);
    const tied = rankByRelation('right-of', [...nodes, { key: 5, bbox: box(160, 90) }], anchor);
    expect(nearest(tied).map((n) => n.key)).toEqual([3, 5]);
  });
});
