import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitTempFile, createTempFile, DestinationExistsError, resolveDestination } from '../../src/core/pack/destination.js';
import { defaultZipName, safeFileName } from '../../src/core/shipment/zip-name.js';
import { packFolder } from '../../src/core/pack/pack-folder.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { goodFiles } from './helpers.js';

const NAME = 'kitchen-1.2.0.zip';

/** A folder on another file system than the temporary folder, where one exists (Linux: /dev/shm). */
function otherFileSystem(): string | undefined {
  try {
    const shm = '/dev/shm';
    return statSync(shm).dev !== statSync(tmpdir()).dev ? shm : undefined;
  } catch {
    return undefined;
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('safeFileName and defaultZipName', () => {
  it('turns a run of refused characters into one dash', () => {
    expect(safeFileName('Kitchen  &  Bath')).toBe('Kitchen-Bath');
    expect(safeFileName('a<>:"|?*b')).toBe('a-b');
  });

  it('drops the dots and dashes that cutting at 64 code points leaves at the end', () => {
    expect(safeFileName(`${'a'.repeat(62)}..b`)).toBe('a'.repeat(62));
    expect(safeFileName(`${'a'.repeat(61)}.-.b`)).toBe('a'.repeat(61));
    expect(safeFileName(`${'a'.repeat(62)}.b`)).toBe(`${'a'.repeat(62)}.b`);
  });

  it('uses the folder name when the manifest has a version but no short name', () => {
    expect(defaultZipName(undefined, '1.0.0', 'my-tool')).toBe('my-tool.zip');
    expect(defaultZipName('', '1.0.0', 'my-tool')).toBe('my-tool-1.0.0.zip');
  });

  it('marks Windows device names, numbered ones included, and nothing that merely contains one', () => {
    for (const device of ['com1', 'COM9', 'lpt3', 'com²', 'aux', 'nul.tar', 'PRN']) {
      expect(defaultZipName(undefined, undefined, device)).toBe(`${device.toLowerCase()}_.zip`);
    }
    for (const name of ['falcon', 'comx', 'com10', 'lpt', 'auxiliary', 'null', 'tinycon']) {
      expect(defaultZipName(undefined, undefined, name)).toBe(`${name}.zip`);
    }
  });
});

describe('resolveDestination', () => {
  it('treats an empty -o as none: the default name in the working folder, whatever that is called', async () => {
    const cwd = path.join(tempDir(), 'releases.zip');
    expect(await resolveDestination('', NAME, cwd)).toBe(path.join(cwd, NAME));
    expect(await resolveDestination(undefined, NAME, cwd)).toBe(path.join(cwd, NAME));
  });

  it('reads a trailing slash as a folder, even one named like a zip', async () => {
    const cwd = tempDir();
    expect(await resolveDestination('releases.zip/', NAME, cwd)).toBe(path.join(cwd, 'releases.zip', NAME));
    expect(await resolveDestination(`out${path.sep}`, NAME, cwd)).toBe(path.join(cwd, 'out', NAME));
  });

  it('takes an existing .zip file as the destination, to be replaced with --force', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'old.zip'), 'OLD');
    expect(await resolveDestination('old.zip', NAME, cwd)).toBe(path.join(cwd, 'old.zip'));
  });

  it('never goes through a link: a dangling one is replaced only under a .zip name, and refused otherwise', async () => {
    const cwd = tempDir();
    symlinkSync(path.join(cwd, 'missing'), path.join(cwd, 'link.zip'));
    symlinkSync(path.join(cwd, 'missing'), path.join(cwd, 'link'));
    expect(await resolveDestination('link.zip', NAME, cwd)).toBe(path.join(cwd, 'link.zip'));
    const error = await rejection(resolveDestination('link', NAME, cwd));
    expect(error).toMatchObject({
      name: 'UsageError',
      message: 'link exists and is not a .zip; pack writes only .zip files and never replaces anything else. Give a name ending in .zip, or a folder.',
    });
  });
});

describe('createTempFile', () => {
  it('says a file is in the way when one blocks the folder path, at any depth', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'plain'), 'x');
    for (const destination of [path.join(cwd, 'plain', 'a.zip'), path.join(cwd, 'plain', 'deeper', 'a.zip')]) {
      const folder = path.dirname(destination);
      expect(await rejection(createTempFile(destination))).toMatchObject({
        name: 'UsageError',
        message: `cannot create the folder ${folder}: a file is in the way on that path.`,
      });
    }
  });

  it('passes on the system’s reason for any other folder it cannot create', async () => {
    const folder = path.join(tempDir(), 'x'.repeat(300));
    const error = await rejection(createTempFile(path.join(folder, 'a.zip')));
    expect(error.name).toBe('UsageError');
    expect(error.message).toMatch(new RegExp(`^cannot create the folder ${literal(folder)}: ENAMETOOLONG: .*\\.$`));
  });

  it.skipIf(process.platform !== 'linux')('names the folder it cannot write in', async () => {
    const error = await rejection(createTempFile('/proc/tool.zip'));
    expect(error.name).toBe('UsageError');
    expect(error.message).toMatch(/^cannot write in \/proc: E[A-Z]+: /);
  });

  it('creates a new, empty, hidden file beside the destination', async () => {
    const destination = path.join(tempDir(), 'new', 'tool.zip');
    const { temp, handle } = await createTempFile(destination);
    await handle.close();
    expect(path.dirname(temp)).toBe(path.dirname(destination));
    expect(path.basename(temp)).toMatch(/^\.tool\.zip\.[0-9a-f]{12}\.tmp$/);
    expect(readFileSync(temp)).toHaveLength(0);
  });

  it('names the temporary file after the destination, cut to 200 bytes so any name a file system takes can be written', async () => {
    const folder = tempDir();
    const tempName = async (name: string) => {
      const { temp, handle } = await createTempFile(path.join(folder, name));
      await handle.close();
      const base = path.basename(temp);
      expect(base).toMatch(/\.[0-9a-f]{12}\.tmp$/);
      expect(Buffer.byteLength(base)).toBeLessThanOrEqual(255);
      return base.slice(1, -'.123456789abc.tmp'.length);
    };
    const exactly200 = `${'x'.repeat(196)}.zip`;
    expect(await tempName(exactly200)).toBe(exactly200);
    expect(await tempName(`${'y'.repeat(247)}.zip`)).toBe('y'.repeat(200));
    // Never half a character: the é that would reach byte 201 is left out whole.
    expect(await tempName(`a${'é'.repeat(110)}.zip`)).toBe(`a${'é'.repeat(99)}`);
  });

  it('lets pack write a zip whose name takes 251 bytes', async () => {
    const cwd = tempDir();
    const out = `${'k'.repeat(247)}.zip`;
    const result = await packFolder(writeFolder(goodFiles()), { cwd, out });
    expect(result).toMatchObject({ written: true, outputPath: path.join(cwd, out) });
    expect(readFileSync(result.outputPath).subarray(0, 2).toString()).toBe('PK');
  });
});

describe('commitTempFile', () => {
  async function finished(destination: string, content = 'NEW'): Promise<string> {
    const { temp, handle } = await createTempFile(destination);
    await handle.writeFile(content);
    await handle.close();
    return temp;
  }

  it('puts the file in place and leaves no temporary file behind', async () => {
    const destination = path.join(tempDir(), 'tool.zip');
    const temp = await finished(destination);
    await commitTempFile(temp, destination, false);
    expect(readFileSync(destination, 'utf8')).toBe('NEW');
    expect(existsSync(temp)).toBe(false);
  });

  it('without force, never replaces a file that appeared at the destination meanwhile', async () => {
    const destination = path.join(tempDir(), 'tool.zip');
    const temp = await finished(destination);
    writeFileSync(destination, 'OTHER');
    const error = await rejection(commitTempFile(temp, destination, false));
    expect(error).toBeInstanceOf(DestinationExistsError);
    expect(error).toMatchObject({ name: 'UsageError', destination, message: `${destination} already exists; use --force to replace it.` });
    expect(readFileSync(destination, 'utf8')).toBe('OTHER');
  });

  it('with force, replaces it', async () => {
    const destination = path.join(tempDir(), 'tool.zip');
    const temp = await finished(destination);
    writeFileSync(destination, 'OTHER');
    await commitTempFile(temp, destination, true);
    expect(readFileSync(destination, 'utf8')).toBe('NEW');
    expect(existsSync(temp)).toBe(false);
  });

  it('turns a failure to move the file into a usage error naming the destination', async () => {
    const folder = tempDir();
    const destination = path.join(folder, 'tool.zip');
    const vanished = path.join(folder, '.tool.zip.gone.tmp');
    for (const force of [false, true]) {
      const error = await rejection(commitTempFile(vanished, destination, force));
      expect(error.name).toBe('UsageError');
      expect(error.message).toMatch(new RegExp(`^cannot write ${literal(destination)}: ENOENT: `));
      expect(existsSync(destination)).toBe(false);
    }
    // Without force, a file already there is reported as such, whatever else went wrong.
    writeFileSync(destination, 'OTHER');
    expect(await rejection(commitTempFile(vanished, destination, false))).toBeInstanceOf(DestinationExistsError);
    expect(readFileSync(destination, 'utf8')).toBe('OTHER');
  });

  it.skipIf(otherFileSystem() === undefined)('falls back to a rename where a hard link is impossible, and reports why that failed too', async () => {
    const elsewhere = path.join(otherFileSystem()!, `pipeline-tool-test-${process.pid}-${Date.now()}`);
    mkdirSync(elsewhere);
    try {
      const destination = path.join(elsewhere, 'tool.zip');
      const temp = await finished(path.join(tempDir(), 'tool.zip'));
      const error = await rejection(commitTempFile(temp, destination, false));
      expect(error.name).toBe('UsageError');
      expect(error.message).toMatch(new RegExp(`^cannot write ${literal(destination)}: EXDEV: `));
      expect(existsSync(destination)).toBe(false);
      expect(readFileSync(temp, 'utf8')).toBe('NEW');
      // The fallback checks for an existing file itself, as the link would have.
      writeFileSync(destination, 'OTHER');
      expect(await rejection(commitTempFile(temp, destination, false))).toBeInstanceOf(DestinationExistsError);
      expect(readFileSync(destination, 'utf8')).toBe('OTHER');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
