import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotRegularFileError, openRegularFile, readRegularFile } from '../../src/core/regular-file.js';
import { tempDir } from '../helpers/bundles.js';
import type * as FsPromises from 'node:fs/promises';

/*
 * The race an attacker controls: a regular file when pipeline-tool looks at it, a named pipe by the
 * time it opens it. The other FIFO tests make the pipe before anything looks, so the look refuses
 * it and the open is never reached. Here the look itself swaps the file for a pipe, right after it
 * has seen a regular file, so the open meets the pipe every time. Opened without O_NONBLOCK, that
 * open would wait for a writer that never comes, on one of the four threads Node does its file
 * work on.
 */

/** The path whose next look (stat or lstat) swaps it for a named pipe once it has been seen. */
let swapOnLook: string | undefined;

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const swapAfter =
    <A extends unknown[], R>(look: (file: string, ...rest: A) => Promise<R>) =>
    async (file: string, ...rest: A): Promise<R> => {
      const seen = await look(file, ...rest);
      if (swapOnLook !== undefined && String(file) === swapOnLook) {
        swapOnLook = undefined;
        rmSync(file);
        execFileSync('mkfifo', [file]);
      }
      return seen;
    };
  const mocked = { ...real, stat: swapAfter(real.stat as never), lstat: swapAfter(real.lstat as never) };
  return { ...mocked, default: mocked };
});

afterEach(() => {
  swapOnLook = undefined;
});

/** How long an open that should be instant may take before the test calls it stuck: only a missing O_NONBLOCK gets near it. */
const STUCK_AFTER_MS = 10_000;

/**
 * Runs `opening`; if it has not settled well after it should have, a writer opens the pipe to let
 * the stuck open go (so the thread is not lost for the rest of the run) and the test fails saying why.
 */
async function settleOrUnstick<T>(pipe: string, opening: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), STUCK_AFTER_MS)));
  const outcome = await Promise.race([opening.then(() => 'settled' as const, () => 'settled' as const), stuck]);
  clearTimeout(timer);
  if (outcome === 'stuck') {
    // A reader waiting in open() already counts as one, so a non-blocking writer gets in and lets it go.
    closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
    await opening.catch(() => undefined);
    throw new Error(`opening ${pipe} waited for a writer: a named pipe that replaced the file after the look must open at once (O_NONBLOCK) and be refused`);
  }
  return opening;
}

describe.skipIf(process.platform === 'win32')('a file swapped for a named pipe between the look and the open', () => {
  it.each([
    ['following links (stat)', {}],
    ['refusing links (lstat)', { followLinks: false }],
  ] as const)('is refused as a named pipe, at once, %s', async (_how, options) => {
    const file = path.join(tempDir(), 'app.js');
    writeFileSync(file, 'console.log(1);\n');
    swapOnLook = file;
    const failure = await settleOrUnstick(
      file,
      openRegularFile(file, options).then(
        async ({ handle }) => {
          await handle.close();
          return undefined;
        },
        (error: unknown) => error,
      ),
    );
    // The look saw a regular file: only the open, and the look through its descriptor, met the pipe.
    expect(swapOnLook).toBeUndefined();
    expect(failure).toBeInstanceOf(NotRegularFileError);
    expect(failure).toMatchObject({ type: 'fifo', message: `${file} is a named pipe (FIFO), not a regular file` });
  }, 60_000);

  it('is refused when read whole, too', async () => {
    const file = path.join(tempDir(), 'manifest.json');
    writeFileSync(file, '{}');
    swapOnLook = file;
    const failure = await settleOrUnstick(
      file,
      readRegularFile(file).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(failure).toMatchObject({ type: 'fifo' });
  }, 60_000);
});
