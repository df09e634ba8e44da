import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFileInside, pathInside, readInside, readRegularUpTo } from '../../src/core/source-map/read-inside.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * How maps and sources are read from disk: only a regular file, only inside its folder (links
 * resolved), only up to a size. A map may name any path, and a link in the project may lead anywhere.
 */

/** A project with `inside/a.txt` (`abc`), `inside/sub/`, `outside.txt`, and links from inside to each. */
function layout() {
  const base = tempDir();
  const root = path.join(base, 'inside');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'a.txt'), 'abc');
  writeFileSync(path.join(base, 'outside.txt'), 'secret');
  symlinkSync(path.join(base, 'outside.txt'), path.join(root, 'out-link.txt'));
  symlinkSync(path.join(root, 'a.txt'), path.join(root, 'in-link.txt'));
  return { base, root };
}

describe('a path inside a folder, by its name', () => {
  it('is the absolute path of a file or folder below the folder, relative or absolute', () => {
    expect(pathInside('/p', 'a/b.js')).toBe(path.resolve('/p/a/b.js'));
    expect(pathInside('/p', '/p/a/../b.js')).toBe(path.resolve('/p/b.js'));
  });

  it('may be in a folder whose name begins with two dots', async () => {
    expect(pathInside('/p', '..cache/a.js')).toBe(path.resolve('/p/..cache/a.js'));
    expect(pathInside('/p', '...')).toBe(path.resolve('/p/...'));
    const { root } = layout();
    mkdirSync(path.join(root, '..cache'));
    writeFileSync(path.join(root, '..cache', 'b.txt'), 'kept');
    expect(await isFileInside(root, path.join(root, '..cache', 'b.txt'))).toBe(true);
    expect((await readInside(root, path.join(root, '..cache', 'b.txt'), 100))?.toString()).toBe('kept');
  });

  it('is not the folder itself, its parent, a sibling, or a path elsewhere', () => {
    expect(pathInside('/p', '.')).toBeUndefined();
    expect(pathInside('/p', '/p')).toBeUndefined();
    expect(pathInside('/p', '..')).toBeUndefined();
    expect(pathInside('/p', '../q/a.js')).toBeUndefined();
    expect(pathInside('/p', '/q/a.js')).toBeUndefined();
  });
});

describe('a regular file inside a folder, on disk', () => {
  it('is a file below the folder, or a link inside it to one', async () => {
    const { root } = layout();
    expect(await isFileInside(root, path.join(root, 'a.txt'))).toBe(true);
    expect(await isFileInside(root, path.join(root, 'in-link.txt'))).toBe(true);
  });

  it('is not a folder, a missing file, a link that leads out, or a file outside', async () => {
    const { base, root } = layout();
    expect(await isFileInside(root, path.join(root, 'sub'))).toBe(false);
    expect(await isFileInside(root, path.join(root, 'missing.txt'))).toBe(false);
    expect(await isFileInside(root, path.join(root, 'out-link.txt'))).toBe(false);
    expect(await isFileInside(root, path.join(base, 'outside.txt'))).toBe(false);
  });

  it('is read when it is the file itself; never through a link, even one inside; not when missing', async () => {
    const { root } = layout();
    expect((await readInside(root, path.join(root, 'a.txt'), 100))?.toString()).toBe('abc');
    expect(await readInside(root, path.join(root, 'in-link.txt'), 100)).toBeUndefined();
    expect(await readInside(root, path.join(root, 'out-link.txt'), 100)).toBeUndefined();
    expect(await readInside(root, path.join(root, 'missing.txt'), 100)).toBeUndefined();
  });

  it('is not read when it lies outside the folder, named by its own path', async () => {
    const { base, root } = layout();
    expect(await readInside(root, path.join(base, 'outside.txt'), 100)).toBeUndefined();
    expect(await readInside(root, path.join(root, '..', 'outside.txt'), 100)).toBeUndefined();
  });
});

describe('a regular file of at most so many bytes', () => {
  it('is read at exactly the limit, and not one byte over it', async () => {
    const { root } = layout();
    expect((await readRegularUpTo(path.join(root, 'a.txt'), 3))?.toString()).toBe('abc');
    expect(await readRegularUpTo(path.join(root, 'a.txt'), 2)).toBeUndefined();
    expect((await readInside(root, path.join(root, 'a.txt'), 3))?.toString()).toBe('abc');
    expect(await readInside(root, path.join(root, 'a.txt'), 2)).toBeUndefined();
  });

  it('is not a folder, a link, or a missing file', async () => {
    const { root } = layout();
    expect(await readRegularUpTo(path.join(root, 'sub'), 100)).toBeUndefined();
    expect(await readRegularUpTo(path.join(root, 'in-link.txt'), 100)).toBeUndefined();
    expect(await readRegularUpTo(path.join(root, 'missing.txt'), 100)).toBeUndefined();
  });
});
