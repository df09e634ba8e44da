import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asDiskWriteError, describeDiskError, DiskWriteError } from '../../src/core/disk-errors.js';
import { UsageError } from '../../src/core/errors.js';
import { NotRegularFileError, openRegularFile, readRegularFile } from '../../src/core/regular-file.js';
import { tempDir } from '../helpers/bundles.js';

describe('openRegularFile', () => {
  it('opens a regular file, following a link to one unless told not to', async () => {
    const folder = tempDir();
    const file = path.join(folder, 'data.json');
    writeFileSync(file, '{"a": 1}');
    symlinkSync(file, path.join(folder, 'link.json'));
    const { handle, info } = await openRegularFile(path.join(folder, 'link.json'));
    expect(info.size).toBe(8);
    expect((await handle.readFile()).toString()).toBe('{"a": 1}');
    await handle.close();
    await expect(openRegularFile(path.join(folder, 'link.json'), { followLinks: false })).rejects.toMatchObject({
      type: 'symlink',
      message: `${path.join(folder, 'link.json')} is a symbolic link, not a regular file`,
    });
  });

  it('refuses a named pipe at once, without waiting for a writer, and says what it is', async () => {
    const fifo = path.join(tempDir(), 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    // Each of these would take one of Node's four file threads for ever if the pipe were opened.
    const attempts = await Promise.all(Array.from({ length: 8 }, () => readRegularFile(fifo).catch((error: unknown) => error)));
    for (const error of attempts) {
      expect(error).toBeInstanceOf(NotRegularFileError);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ file: fifo, type: 'fifo', kind: 'a named pipe (FIFO)', message: `${fifo} is a named pipe (FIFO), not a regular file` });
    }
    // The file threads are free: an ordinary read still completes.
    const file = path.join(tempDir(), 'plain.txt');
    writeFileSync(file, 'plain');
    expect((await readRegularFile(file)).toString()).toBe('plain');
  });

  it('names folders, devices and sockets for what they are', async () => {
    const folder = path.join(tempDir(), 'folder.json');
    mkdirSync(folder);
    await expect(openRegularFile(folder)).rejects.toMatchObject({ type: 'directory', message: `${folder} is a folder, not a regular file` });
    await expect(openRegularFile('/dev/null')).rejects.toMatchObject({ type: 'character-device', message: '/dev/null is a character device, not a regular file' });
    const socketPath = path.join(tempDir(), 'socket.json');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      await expect(openRegularFile(socketPath)).rejects.toMatchObject({ type: 'socket', message: `${socketPath} is a socket, not a regular file` });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('passes on what the file system says otherwise', async () => {
    await expect(openRegularFile(path.join(tempDir(), 'missing.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads at most maxBytes bytes', async () => {
    const file = path.join(tempDir(), 'long.txt');
    writeFileSync(file, 'abcdefghij');
    expect((await readRegularFile(file, { maxBytes: 4 })).toString()).toBe('abcd');
    expect((await readRegularFile(file, { maxBytes: 40 })).toString()).toBe('abcdefghij');
  });
});

describe('a write the file system refuses', () => {
  const target = '/srv/out/tool-1.0.0.zip';

  it('gets a sentence of its own for each reason, naming the file and its folder', () => {
    const sentences = ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM'].map((code) => describeDiskError(code, target));
    expect(sentences).toEqual([
      'the disk holding /srv/out is full (ENOSPC), so /srv/out/tool-1.0.0.zip could not be written. Free some space, then try again.',
      'your disk quota for /srv/out is used up (EDQUOT), so /srv/out/tool-1.0.0.zip could not be written. Free some space or ask for a larger quota, then try again.',
      '/srv/out is on a read-only file system (EROFS), so /srv/out/tool-1.0.0.zip could not be written. Write it somewhere else.',
      "you may not write in /srv/out (EACCES, permission denied), so /srv/out/tool-1.0.0.zip could not be written. Change the folder's permissions, or write it somewhere else.",
      "the system does not permit writing /srv/out/tool-1.0.0.zip in /srv/out (EPERM). Check the folder's permissions and attributes, or write it somewhere else.",
    ]);
    expect(describeDiskError('EIO', target)).toBeUndefined();
    expect(describeDiskError('toString', target)).toBeUndefined();
  });

  it('becomes a DiskWriteError, a UsageError; anything else is left as it is', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const disk = asDiskWriteError(full, target);
    expect(disk).toBeInstanceOf(DiskWriteError);
    expect(disk).toBeInstanceOf(UsageError);
    expect(disk).toMatchObject({ code: 'ENOSPC', target, cause: full });
    const other = Object.assign(new Error('EIO'), { code: 'EIO' });
    expect(asDiskWriteError(other, target)).toBe(other);
    const usage = new UsageError('already explained');
    expect(asDiskWriteError(Object.assign(usage, { code: 'EACCES' }), target)).toBe(usage);
  });
});
