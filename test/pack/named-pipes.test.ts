import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE } from '../../src/core/config/file-name.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { goodFiles } from './helpers.js';

/*
 * A named pipe opened for reading waits for a writer that never comes: the binary must refuse
 * every file it reads that is one, at once, naming it. runCli gives up on a process after a
 * minute, so a hang fails these tests instead of passing them.
 */

function withPipe(files: Record<string, string | Buffer>, pipe: string): string {
  const root = writeFolder(files);
  execFileSync('mkfifo', [path.join(root, pipe)]);
  return root;
}

describe.skipIf(process.platform === 'win32')('a named pipe where a file is read', () => {
  it('.pipelineignore: validate and pack refuse it at once with one line naming it, and write nothing', () => {
    const root = withPipe(goodFiles(), '.pipelineignore');
    const ignoreFile = path.join(root, '.pipelineignore');
    const said = `pipeline-tool: ${ignoreFile} is a named pipe (FIFO), not a regular file; .pipelineignore must be a text file of patterns. Replace it with one, or remove it.\n`;
    for (const command of ['validate', 'pack']) {
      const cwd = tempDir();
      const result = runCli([command, root], { cwd });
      expect(result, command).toMatchObject({ code: 2, stdout: '', stderr: said });
      expect(result.stderr).not.toMatch(STACK_TRACE);
      expect(readdirSync(cwd), command).toEqual([]);
    }
  });

  it('the project file: refused with one line naming it, found from the working folder or from the path given', () => {
    const files = Object.fromEntries(Object.entries(goodFiles()).map(([name, data]) => [`tool/${name}`, data]));
    const cwd = withPipe(files, CONFIG_FILE);
    for (const args of [['validate'], ['validate', 'tool'], ['validate', path.join(cwd, 'tool')]]) {
      const result = runCli(args, { cwd: args.length === 1 ? cwd : args[1] === 'tool' ? cwd : tempDir() });
      expect(result, args.join(' ')).toMatchObject({ code: 2, stderr: expect.stringContaining(`is a named pipe (FIFO), not a regular file; the project file is a JSON file named ${CONFIG_FILE}.\n`) });
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
  });

  it('manifest.json of version: refused with one line naming it', () => {
    const root = withPipe({ 'index.html': '<!doctype html>' }, 'manifest.json');
    const cwd = tempDir();
    const result = runCli(['version', 'patch', root], { cwd });
    expect(result).toMatchObject({
      code: 2,
      stderr: `pipeline-tool: ${path.relative(cwd, path.join(root, 'manifest.json'))} is a named pipe (FIFO), not a regular file; make it a plain JSON file.\n`,
    });
  });

  it("a tool's file or its manifest: left out by pack and validate, never read", () => {
    const root = withPipe(goodFiles(), 'data.json');
    const out = path.join(tempDir(), 'tool.zip');
    const packed = runCli(['pack', root, '-o', out, '--format', 'json']);
    expect(packed.code).toBe(0);
    expect(JSON.parse(packed.stdout)).toMatchObject({ written: true, excluded: expect.arrayContaining([expect.objectContaining({ path: 'data.json', reason: 'not-regular' })]) });

    const manifestPipe = withPipe({ 'index.html': '<!doctype html>' }, 'manifest.json');
    const validated = runCli(['validate', manifestPipe, '--format', 'json']);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toBe('');
    expect(JSON.parse(validated.stdout).problems.map((problem: { ruleId: string }) => problem.ruleId)).toContain('manifest-missing');
    expect(existsSync(path.join(manifestPipe, 'manifest.json'))).toBe(true);
  });

  it('a file given to --fixtures of dev: refused at start with one line naming it', () => {
    const tool = writeFolder(goodFiles());
    const fixtures = path.join(tempDir(), 'fixtures.json');
    execFileSync('mkfifo', [fixtures]);
    const result = runCli(['dev', tool, '--port', '0', '--fixtures', fixtures]);
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: `pipeline-tool: ${fixtures}: it is a named pipe (FIFO), not a regular file; give the path of a JSON file\n` });
  });
});
