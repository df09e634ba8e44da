import { describe, expect, it } from 'vitest';
import { unsafePathReason } from '../../src/core/paths.js';

describe('unsafePathReason and the names Windows keeps for devices', () => {
  it('refuses each device name, numbered ones with a superscript digit too, with or without an extension', () => {
    for (const name of ['con', 'PRN.txt', 'aux.js', 'nul', 'com1', 'COM9.css', 'com\u00b9', 'COM\u00b2.js', 'lpt\u00b3', 'lpt1.html', 'assets/lpt\u00b2.png']) {
      expect(unsafePathReason(name), name).toMatch(/reserved device name on Windows/);
    }
  });

  it('accepts names that only contain or resemble one', () => {
    for (const name of ['console.js', 'com10', 'lpt', 'com\u2074', 'auxiliary.css', 'null.js', 'icon.png', 'assets/prn-list.json']) {
      expect(unsafePathReason(name), name).toBeUndefined();
    }
  });
});
