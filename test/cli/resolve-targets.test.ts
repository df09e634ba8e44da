import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { resolveTargets } from '../../src/cli/project.js';
import { goodEntries, tempDir, writeZip } from '../helpers/bundles.js';

/** The io a command resolves its paths with: only the working folder matters here. */
function ioAt(cwd: string): CliIo {
  return { cwd, env: {}, stdin: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, stdout: () => {}, stderr: () => {} } as unknown as CliIo;
}

describe('resolving several targets', () => {
  it('reads the project file of a release folder once for all its zips, and each zip gets its rules', async () => {
    const project = tempDir();
    writeFileSync(path.join(project, 'pipeline-tool.config.json'), JSON.stringify({ source: 'dist', out: 'release', rules: { 'dialog-call': 'error' } }));
    mkdirSync(path.join(project, 'release'));
    const zip = writeZip(goodEntries());
    for (const name of ['a-1.0.0.zip', 'b-1.0.0.zip', 'c-1.0.0.zip']) cpSync(zip, path.join(project, 'release', name));

    const { targets, several } = await resolveTargets(['release'], {}, ioAt(project), 'validate');
    expect(several).toBe(true);
    expect(targets.map((target) => path.basename(target.path))).toEqual(['a-1.0.0.zip', 'b-1.0.0.zip', 'c-1.0.0.zip']);
    expect(targets.every((target) => target.rules['dialog-call'] === 'error')).toBe(true);
    // One project file, read once: the same loaded project for every zip.
    expect(new Set(targets.map((target) => target.project)).size).toBe(1);
    expect(targets[0]!.project?.file).toBe(path.join(project, 'pipeline-tool.config.json'));
  });

  it('two projects named together keep their own project files', async () => {
    const parent = tempDir();
    for (const name of ['one', 'two']) {
      mkdirSync(path.join(parent, name, 'release'), { recursive: true });
      writeFileSync(path.join(parent, name, 'pipeline-tool.config.json'), JSON.stringify({ source: 'dist', out: 'release' }));
      cpSync(writeZip(goodEntries()), path.join(parent, name, 'release', `${name}.zip`));
    }
    const { targets } = await resolveTargets(['one/release', 'two/release'], {}, ioAt(parent), 'validate');
    expect(targets.map((target) => target.project?.file)).toEqual([path.join(parent, 'one', 'pipeline-tool.config.json'), path.join(parent, 'two', 'pipeline-tool.config.json')]);
  });
});
