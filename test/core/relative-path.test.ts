import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { leavesFolder } from '../../src/core/relative-path.js';
import { isInside } from '../../src/dev/static-files.js';

describe('leavesFolder', () => {
  it('is true for the parent, a path under it, and another root', () => {
    for (const relative of ['..', '../a', `..${path.sep}a`, '../../a/b', path.resolve('/elsewhere')]) expect(leavesFolder(relative), relative).toBe(true);
  });

  it('is false for the folder itself, a path below it, and names that only begin with dots', () => {
    for (const relative of ['', 'a', 'a/../b', '..cache', '..cache/a.js', `..cache${path.sep}a.js`, '...', '.hidden']) expect(leavesFolder(relative), relative).toBe(false);
  });

  it('is how dev tells a file of the tool folder from one outside it', () => {
    expect(isInside('/tool', '/tool/..cache/app.js')).toBe(true);
    expect(isInside('/tool', '/tool')).toBe(true);
    expect(isInside('/tool', '/tool-other/app.js')).toBe(false);
    expect(isInside('/tool', '/app.js')).toBe(false);
  });
});
