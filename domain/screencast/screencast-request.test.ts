import { describe, expect, it } from 'vitest';
import { screencastOptions } from './screencast-request.js';

describe('screencastOptions', () => {
  it('fills in the defaults', () => {
    expect(screencastOptions({})).toEqual({ maxFps: 10, quality: 60, maxWidth: 800 });
  });

  it('refuses a value outside its range with BAD_INPUT naming the range', () => {
    expect(() => screencastOptions({ maxFps: 60 })).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT', message: expect.stringContaining('1 to 30') }),
    );
    expect(() => screencastOptions({ quality: 5 })).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
    expect(() => screencastOptions({ maxWidth: 4000 })).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT' }),
    );
  });
});
