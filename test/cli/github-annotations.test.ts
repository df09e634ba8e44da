import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodFiles, goodManifest, tempDir, writeFolder } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { readsAsCommand, readWorkflowCommand, readWorkflowCommands } from '../helpers/workflow-commands.js';

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

/*
 * A line the runner reads as a command is obeyed: `::error::…` forges an annotation and
 * `::stop-commands::token` hides every annotation after it. Only the tool's own annotations may
 * read as commands, whatever the bundle, its folder or its files are called.
 */
describe('validate and pack --format github with names that look like commands', () => {
  const ownAnnotation = (line: string) => {
    const command = readWorkflowCommand(line);
    return command !== undefined && ['error', 'warning'].includes(command.command) && /^pipeline-tool /.test(command.properties['title'] ?? '');
  };
  const forged = (stdout: string) => stdout.split('\n').filter((line) => readsAsCommand(line) && !ownAnnotation(line));

  for (const name of ['::stop-commands::abc', '::error::forged', ' ::warning::indented', '\u0085::error::nel', 'x ##[error]old form']) {
    it(`never lets the bundle name ${JSON.stringify(name)} start a command`, () => {
      const parent = tempDir();
      const folder = path.join(parent, name);
      mkdirSync(folder);
      for (const [file, content] of Object.entries(goodFiles())) writeFileSync(path.join(folder, file), content);
      writeFileSync(path.join(folder, 'app.js'), 'alert("saved");\n');
      const result = runCli(['validate', name, '--format', 'github'], { cwd: parent });
      expect(result.code).toBe(0);
      expect(forged(result.stdout)).toEqual([]);
      // The finding is still annotated, and the summary still names the bundle.
      expect(readWorkflowCommands(result.stdout).map((annotation) => annotation.command)).toEqual(['warning']);
      expect(result.stdout).toMatch(new RegExp(`${name.slice(-3)}: 1 problem`));
      const several = runCli(['validate', name, name, '--format', 'github'], { cwd: parent });
      expect(forged(several.stdout)).toEqual([]);
    });
  }

  it('never lets an entry name start a command in pack --dry-run', () => {
    const folder = writeFolder({ ...goodFiles(), '::stop-commands::abc.js': '1;\n', 'lib/::error::forged.js': '1;\n', '##[error]x.js': '1;\n' });
    const result = runCli(['pack', path.basename(folder), '--dry-run', '--format', 'github'], { cwd: path.dirname(folder) });
    expect(result.stdout).toContain('stop-commands');
    expect(forged(result.stdout)).toEqual([]);
    expect(readWorkflowCommands(result.stdout).length).toBeGreaterThan(0);
  });
});
