import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atFileEnd } from './file-end.js';

/*
 * A full disk, a read-only one, and a folder the user may not write in, made for real: a small
 * tmpfs mounted for the test. That needs root on Linux (as in CI and the dev container); anywhere
 * else the tests that need it are skipped, and say so once.
 */

const mounted: string[] = [];
const folders: string[] = [];
atFileEnd(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  for (const point of mounted.splice(0)) {
    try {
      execFileSync('umount', ['-l', point], { stdio: 'ignore' });
      rmSync(point, { recursive: true, force: true });
    } catch {
      // Left for the system to clean up with /tmp.
    }
  }
});

/** Why small disks cannot be made here, or null when they can. */
function findBlocker(): string | null {
  if (process.platform !== 'linux') return 'they mount a tmpfs, which needs Linux';
  if (process.getuid?.() !== 0) return 'they mount a tmpfs, which needs root';
  try {
    const probe = mountSmallDisk({ sizeKiB: 64 });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    mounted.splice(mounted.indexOf(probe), 1);
    rmSync(probe, { recursive: true, force: true });
    return null;
  } catch (error) {
    return `mounting a tmpfs failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

let blocker: string | null | undefined;

/** True when small disks can be made; otherwise warns once, naming what the skipped tests need. */
export function canMakeSmallDisks(what: string): boolean {
  blocker ??= findBlocker();
  if (blocker !== null) console.warn(`Skipping the tests of ${what}: ${blocker}.`);
  return blocker === null;
}

/** A fresh tmpfs of `sizeKiB`, unmounted after the test file; read-only when asked. */
export function mountSmallDisk(options: { sizeKiB: number; readOnly?: boolean }): string {
  const point = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${options.sizeKiB}k,mode=0755${options.readOnly ? ',ro' : ''}`, 'tmpfs', point], { stdio: 'pipe' });
  mounted.push(point);
  return point;
}

/** Fills what is left of a small disk with one file, which is returned; removing it frees the space. */
export function fillDisk(point: string): string {
  const filler = path.join(point, 'filler.bin');
  try {
    writeFileSync(filler, Buffer.alloc(64 * 1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

/** A folder that only root may write in, with `files` that anyone may read. */
export function readOnlyForOthers(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-others-'));
  folders.push(root);
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(root, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  chmodSync(root, 0o755);
  return root;
}
