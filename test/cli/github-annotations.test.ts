import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodManifest, writeFolder } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { readWorkflowCommands } from '../helpers/workflow-commands.js';

/*
 * `--format github` prints workflow commands, which GitHub's runner splits at `,` and `::`
 * before it unescapes them. A folder may hold files whose names contain either, and the
 * annotation must still land on that file, at its line, with its rule as the title.
 */

const PAGE = (scripts: string[]) => `<!doctype html><title>T</title>${scripts.map((src) => `<script src="${src}"></script>`).join('')}`;

describe('validate --format github, read as GitHub reads it', () => {
  it('keeps a comma and a colon in a file name inside the file property', () => {
    const names = ['lib/50%,x.js', 'lib/a::b.js', 'lib/price,list.js'];
    const folder = writeFolder({
      'manifest.json': JSON.stringify(goodManifest),
      'index.html': PAGE(names.map((name) => name.replace(/%/g, '%25'))),
      // On the second line, so a line property that went missing would be noticed too.
      ...Object.fromEntries(names.map((name) => [name, '// rates\nalert("saved");\n'])),
    });
    const result = runCli(['validate', path.basename(folder), '--format', 'github'], { cwd: path.dirname(folder) });
    expect(result.stderr).toBe('');
    // A colon is legal on Linux and macOS, but not in a bundle: Windows refuses it.
    expect(result.code).toBe(1);
    const annotations = readWorkflowCommands(result.stdout);
    const at = (name: string) => `${path.basename(folder)}/${name}`;
    const dialog = (name: string) => ['warning', { file: at(name), line: '2', col: '1', title: 'pipeline-tool dialog-call' }];
    expect(annotations.map((annotation) => [annotation.command, annotation.properties])).toEqual([
      dialog('lib/50%,x.js'),
      ['error', { file: at('lib/a::b.js'), title: 'pipeline-tool path-unsafe' }],
      dialog('lib/a::b.js'),
      dialog('lib/price,list.js'),
    ]);
    expect(annotations.filter((annotation) => annotation.command === 'warning').map((annotation) => annotation.message)).toEqual(
      Array(3).fill(expect.stringMatching(/^alert\(\) does nothing/)),
    );
  });

  it('keeps a comma and a colon in the rule title and the zip name', () => {
    const folder = writeFolder({ 'a,b::c.zip': 'not a zip at all' });
    const result = runCli(['validate', 'a,b::c.zip', '--format', 'github'], { cwd: folder });
    expect(result.code).toBe(1);
    const [annotation] = readWorkflowCommands(result.stdout);
    expect(annotation?.properties).toEqual({ file: 'a,b::c.zip', title: expect.stringMatching(/^pipeline-tool archive-/) });
  });
});
