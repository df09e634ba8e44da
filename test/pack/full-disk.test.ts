import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, STACK_TRACE } from '../helpers/cli.js';
import { writeFolder } from '../helpers/bundles.js';
import { canMakeSmallDisks, mountSmallDisk, readOnlyForOthers } from '../helpers/small-disk.js';
import { goodFiles } from './helpers.js';

/*
 * pack on a disk that refuses the zip: a tmpfs too small for it, a read-only one, and a folder
 * the user may not write in. Each gets its own sentence naming where, exit 2, no stack trace; the
 * zip already there is kept as it was, and no temporary file is left.
 */

/** A tool whose zip cannot be smaller than its 300,000 random bytes. */
const bigTool = () => writeFolder({ ...goodFiles(), 'photo.png': randomBytes(300_000) });
const OLD_ZIP = Buffer.from('the zip of the last release');

describe.skipIf(!canMakeSmallDisks('pack on a full or read-only disk'))('pack on a disk that refuses the zip', () => {
  it('a full disk (ENOSPC): says so, keeps the old zip, leaves no temporary file', () => {
    const disk = mountSmallDisk({ sizeKiB: 128 });
    const out = path.join(disk, 'tool.zip');
    writeFileSync(out, OLD_ZIP);
    const result = runCli(['pack', bigTool(), '-o', out, '--force']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `pipeline-tool: the disk holding ${disk} is full (ENOSPC), so ${out} could not be written. Free some space, then try again.\n`,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(readFileSync(out)).toEqual(OLD_ZIP);
    expect(readdirSync(disk)).toEqual(['tool.zip']);
  });

  it('a read-only disk (EROFS): says so, naming the folder', () => {
    const disk = mountSmallDisk({ sizeKiB: 128, readOnly: true });
    const out = path.join(disk, 'tool.zip');
    const result = runCli(['pack', writeFolder(goodFiles()), '-o', out]);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `pipeline-tool: ${disk} is on a read-only file system (EROFS), so ${out} could not be written. Write it somewhere else.\n`,
    });
    expect(readdirSync(disk)).toEqual([]);
  });

  it('a folder the user may not write in (EACCES): says so, keeps the old zip', () => {
    const tool = readOnlyForOthers(goodFiles());
    const releases = readOnlyForOthers({ 'tool.zip': OLD_ZIP });
    const out = path.join(releases, 'tool.zip');
    // Run as "nobody": root may write anywhere.
    const result = spawnSync(process.execPath, [BIN, 'pack', tool, '-o', out, '--force'], {
      cwd: releases,
      uid: 65534,
      gid: 65534,
      env: { PATH: process.env['PATH'] ?? '', CI: 'true', HOME: releases },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ code: result.status, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `pipeline-tool: you may not write in ${releases} (EACCES, permission denied), so ${out} could not be written. Change the folder's permissions, or write it somewhere else.\n`,
    });
    expect(readFileSync(out)).toEqual(OLD_ZIP);
    expect(readdirSync(releases)).toEqual(['tool.zip']);
  });

  it('a disk that fills up in a folder pack has to create: the same sentence, naming where', () => {
    const disk = mountSmallDisk({ sizeKiB: 128 });
    const out = path.join(disk, 'releases', 'v1', 'tool.zip');
    mkdirSync(path.dirname(path.dirname(out)));
    const result = runCli(['pack', bigTool(), '-o', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`pipeline-tool: the disk holding ${path.dirname(out)} is full (ENOSPC), so ${out} could not be written. Free some space, then try again.\n`);
    expect(readdirSync(path.dirname(out))).toEqual([]);
  });
});
