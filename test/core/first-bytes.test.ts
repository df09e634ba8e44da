import { describe, expect, it } from 'vitest';
import { FirstBytes } from '../../src/core/first-bytes.js';

describe('FirstBytes', () => {
  it('keeps the first bytes across chunks, up to its limit, and no more', () => {
    const kept = new FirstBytes(5);
    kept.write(Buffer.from('ab'));
    expect(kept.full).toBe(false);
    kept.write(Buffer.from('cdefg'));
    expect(kept.full).toBe(true);
    kept.write(Buffer.from('hij'));
    expect(kept.bytes().toString()).toBe('abcde');
  });

  it('keeps a copy: a reader may fill the same buffer again', () => {
    const kept = new FirstBytes(8);
    const buffer = Buffer.from('1234');
    kept.write(buffer);
    buffer.write('wxyz');
    kept.write(buffer);
    expect(kept.bytes().toString()).toBe('1234wxyz');
  });

  it('gives an empty buffer for nothing written, and for a limit of 0', () => {
    expect(new FirstBytes(3).bytes()).toEqual(Buffer.alloc(0));
    const none = new FirstBytes(0);
    none.write(Buffer.from('x'));
    expect(none.full).toBe(true);
    expect(none.bytes()).toEqual(Buffer.alloc(0));
  });
});
