import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isIgnoredToolPath, snapshotFolder, watchFolder, type Watcher } from '../../src/dev/watch.js';
import { tempDir } from '../helpers/bundles.js';
import { SETTLE_MS, waitFor } from './helpers.js';

let watcher: Watcher | undefined;
afterEach(() => watcher?.close());

function watchInto(root: string, changes: string[][]): Promise<void> {
  watcher = watchFolder(root, { ignore: isIgnoredToolPath, onChange: (changed) => changes.push(changed), debounceMs: 30 });
  return watcher.ready;
}

describe('watching the tool folder', () => {
  it('reports a burst of saves once, in new folders too, but not hidden ones or node_modules', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, '.pipeline-tool'));
    mkdirSync(path.join(root, 'node_modules'));
    const changes: string[][] = [];
    await watchInto(root, changes);

    writeFileSync(path.join(root, 'app.js'), '1');
    writeFileSync(path.join(root, 'app.js'), '2');
    writeFileSync(path.join(root, 'styles.css'), '3');
    await waitFor(() => changes.length > 0, SETTLE_MS, 'a change');
    expect(changes[0]!.sort()).toEqual(['app.js', 'styles.css']);

    mkdirSync(path.join(root, 'lib'));
    await waitFor(() => changes.flat().includes('lib'), SETTLE_MS, 'the new folder');
    writeFileSync(path.join(root, 'lib', 'util.js'), 'x');
    await waitFor(() => changes.flat().includes('lib/util.js'), SETTLE_MS, 'a file in the new folder');

    const count = changes.length;
    writeFileSync(path.join(root, '.pipeline-tool', 'settings.json'), '{}');
    writeFileSync(path.join(root, 'node_modules', 'x.js'), '{}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes.length).toBe(count);
  });

  it('keeps watching a folder that a build deletes and makes again', async () => {
    const root = path.join(tempDir(), 'dist');
    mkdirSync(root);
    writeFileSync(path.join(root, 'app.js'), '1');
    const changes: string[][] = [];
    await watchInto(root, changes);

    rmSync(root, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    mkdirSync(root);
    writeFileSync(path.join(root, 'app.js'), '2');
    await waitFor(() => changes.flat().includes(''), SETTLE_MS, 'the new folder to be noticed');

    writeFileSync(path.join(root, 'app.js'), '3');
    const count = changes.length;
    await waitFor(() => changes.length > count && changes.at(-1)!.includes('app.js'), SETTLE_MS, 'a change in the new folder');
  });
});

describe('watching a tool folder that a build has not made yet', () => {
  it('reports the folder when it appears, then the changes inside it', async () => {
    const root = path.join(tempDir(), 'dist');
    const changes: string[][] = [];
    await watchInto(root, changes);

    mkdirSync(root);
    await waitFor(() => changes.flat().includes(''), SETTLE_MS, 'the folder made after the watch began');
    writeFileSync(path.join(root, 'app.js'), '1');
    await waitFor(() => changes.flat().includes('app.js'), SETTLE_MS, 'a file written into it');
  });

  it('says when the folder goes, and reports it again when the build makes it anew', async () => {
    const root = path.join(tempDir(), 'dist');
    mkdirSync(root);
    let gone = 0;
    const changes: string[][] = [];
    watcher = watchFolder(root, { ignore: isIgnoredToolPath, onChange: (changed) => changes.push(changed), onRootGone: () => gone++, debounceMs: 30 });
    await watcher.ready;

    rmSync(root, { recursive: true });
    await waitFor(() => gone === 1, SETTLE_MS, 'the folder to be missed');
    mkdirSync(root);
    await waitFor(() => changes.flat().includes(''), SETTLE_MS, 'the folder made again');
    writeFileSync(path.join(root, 'app.js'), '2');
    await waitFor(() => changes.flat().includes('app.js'), SETTLE_MS, 'a change in the new folder');
    expect(gone).toBe(1);
  });

  it('reports, once the watch is in place, what changed since the caller read the folder, which sent no event', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'lib'));
    mkdirSync(path.join(root, '.pipeline-tool'));
    writeFileSync(path.join(root, 'gone.js'), 'old');
    writeFileSync(path.join(root, 'kept.js'), 'old');
    writeFileSync(path.join(root, 'replaced.js'), 'old');
    const since = await snapshotFolder(root, isIgnoredToolPath);
    expect([...since.keys()].sort()).toEqual(['', 'gone.js', 'kept.js', 'replaced.js']);
    const changes: string[][] = [];
    watcher = watchFolder(root, { ignore: isIgnoredToolPath, onChange: (changed) => changes.push(changed), debounceMs: 30, since });
    // In the same turn of the event loop: before any folder is watched.
    writeFileSync(path.join(root, 'app.js'), '1');
    writeFileSync(path.join(root, 'lib', 'util.js'), '2');
    rmSync(path.join(root, 'gone.js'));
    writeFileSync(path.join(root, 'replaced.js.tmp'), 'new');
    renameSync(path.join(root, 'replaced.js.tmp'), path.join(root, 'replaced.js'));
    writeFileSync(path.join(root, '.pipeline-tool', 'settings.json'), '{}');
    await watcher.ready;
    await waitFor(() => changes.length > 0, SETTLE_MS, 'the changes made before the watch');
    expect(changes).toEqual([expect.arrayContaining(['app.js', 'lib/util.js', 'gone.js', 'replaced.js'])]);
    expect(changes[0]).toHaveLength(4);
  });
});
