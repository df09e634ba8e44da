import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { VendoredToolkit } from './toolkit-source.js';

/**
 * The bytes of the tarball a project carries in vendor/: the given tarball as it is, or the
 * running copy packed by `npm pack`, exactly as npm would publish it. Packing takes seconds, so
 * a packed copy is kept in the user's cache, keyed by what the copy holds; the next `init` from
 * the same copy reuses it.
 */
export async function readVendoredToolkit(vendor: VendoredToolkit): Promise<Buffer> {
  if ('tarball' in vendor.from) {
    const file = vendor.from.tarball;
    return readFile(file).catch((error: Error) => {
      throw new UsageError(`cannot read ${file}: ${error.message}. Give --pipeline-tool another tarball, a version or a git URL.`);
    });
  }
  return readFile(await packedCopy(vendor.from.folder));
}

/** Where packed copies are kept: the user's own cache folder, never a shared temporary one. */
function cacheFolder(): string {
  const base = process.env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache');
  return path.join(base, 'pipeline-tool', 'toolkit');
}

/**
 * What decides a copy's contents, cheaply: its folder and version, and the size and time of the
 * files a build or an install rewrites (with the build's own hash of its inputs in a checkout).
 */
async function fingerprint(folder: string): Promise<string> {
  const hash = createHash('sha256').update(folder);
  for (const file of ['package.json', 'dist/.build-inputs', 'dist/index.js', 'dist/cli/main.cjs']) {
    const info = await stat(path.join(folder, file)).catch(() => undefined);
    hash.update(`\0${file}\0${info ? `${info.size}:${info.mtimeMs}` : '-'}`);
  }
  const inputs = await readFile(path.join(folder, 'dist/.build-inputs')).catch(() => undefined);
  if (inputs) hash.update(inputs);
  return hash.digest('hex').slice(0, 32);
}

async function packedCopy(folder: string): Promise<string> {
  const cache = cacheFolder();
  const cached = path.join(cache, `${await fingerprint(folder)}.tgz`);
  // Only a regular file this user owns is trusted: a link or someone else's file is packed anew.
  const found = await lstat(cached).catch(() => undefined);
  if (found?.isFile() && (process.getuid === undefined || found.uid === process.getuid())) return cached;
  await mkdir(cache, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(path.join(cache, 'pack-'));
  try {
    const name = await npmPack(folder, work);
    await rename(path.join(work, name), cached);
    return cached;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `npm pack` of a folder into `destination`; returns the tarball's file name. */
function npmPack(folder: string, destination: string): Promise<string> {
  const windows = process.platform === 'win32';
  return new Promise((resolve, reject) => {
    execFile(
      windows ? 'npm.cmd' : 'npm',
      ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination],
      { cwd: folder, shell: windows, maxBuffer: 1 << 20, env: { ...process.env, npm_config_dry_run: 'false', npm_config_json: 'false' } },
      (error, stdout, stderr) => {
        const name = stdout.trim().split('\n').at(-1)?.trim() ?? '';
        if (error || !/^[\w.+-]+\.tgz$/.test(name)) {
          const why = error && (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'npm was not found on the PATH' : (stderr.trim().split('\n').at(-1) ?? error?.message ?? 'no tarball was written');
          reject(
            new UsageError(
              `cannot pack this copy of pipeline-tool (${folder}) into the project: ${why}. Give --pipeline-tool a version, a tarball made by npm pack, or a git URL.`,
            ),
          );
          return;
        }
        resolve(name);
      },
    );
  });
}
