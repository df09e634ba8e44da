import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { BIN, execFileAsync, listFiles, runCli, tempDir } from './helpers.js';

async function manifestOf(project: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(project, 'src/manifest.json'), 'utf8')) as Record<string, unknown>;
}

/** What init made passes validate, and pack then validate of the zip, with no problem at all. */
async function expectCleanTool(project: string): Promise<void> {
  const report = await validateBundle(path.join(project, 'src'));
  expect(report.problems).toEqual([]);
  const packed = await runCli(['pack', 'src', '-o', 'dist/', '--format', 'json'], { cwd: project });
  expect(packed.code, packed.stderr).toBe(EXIT.ok);
  const result = JSON.parse(packed.stdout) as { written: boolean; output: string; report: { problems: unknown[] } };
  expect(result).toMatchObject({ written: true, report: { problems: [] } });
  const validated = await runCli(['validate', result.output, '--max-warnings', '0'], { cwd: project });
  expect(validated.code, validated.stdout).toBe(EXIT.ok);
}

describe('init with flags', () => {
  it('creates the project the issue describes, and exits 0', async () => {
    const cwd = await tempDir();
    const result = await runCli(
      ['init', 'estimator', '--type', 'quoting_extension', '--name', 'Kitchen Estimator', '--short-name', 'Kitchen', '--description', 'Prices kitchens.', '--version', '2.1.0'],
      { cwd },
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: '' });
    const project = path.join(cwd, 'estimator');
    expect(await manifestOf(project)).toMatchObject({
      type: 'quoting_extension',
      name: 'Kitchen Estimator',
      shortName: 'Kitchen',
      description: 'Prices kitchens.',
      version: '2.1.0',
    });
    await expectCleanTool(project);
    // The next steps are the project's own scripts, with the zip's real name.
    for (const command of ['cd estimator', 'npm install', 'npm run dev', 'npm run pack', 'dist/kitchen-2.1.0.zip', 'npx pipeline-tool version patch']) {
      expect(result.stdout).toContain(command);
    }
  });

  it('names pipeline-tool commands in its next steps where the project has no scripts for them', async () => {
    const cwd = await tempDir();
    const project = path.join(cwd, 'x');
    await mkdir(project);
    // An existing package.json is kept as it was, so the project's scripts are not ours.
    await writeFile(path.join(project, 'package.json'), '{"name": "mine"}\n');
    const result = await runCli(['init', 'x', '--yes', '--force'], { cwd });
    expect(result.code).toBe(EXIT.ok);
    // The project file names the tool folder and the output, so the commands need no paths.
    expect(result.stdout).toMatch(/^ {2}npx pipeline-tool dev +runs the tool \(src\/, as pipeline-tool.config.json says\)/m);
    expect(result.stdout).toMatch(/^ {2}npx pipeline-tool pack +builds dist\/x-1\.0\.0\.zip/m);
    expect(result.stdout).not.toContain('npm run');
    // Nothing was written to package.json, so nothing is said about its dependency either.
    expect(result.stdout).not.toContain('file:');
    expect(await readFile(path.join(project, 'package.json'), 'utf8')).toBe('{"name": "mine"}\n');
  });

  it('takes --version as the tool version, not as a request for pipeline-tool’s', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes', '--version', '3.0.0'], { cwd });
    expect(result.code).toBe(EXIT.ok);
    expect((await manifestOf(path.join(cwd, 'x')))['version']).toBe('3.0.0');
  });

  it('without a terminal and without --yes, names what is missing and exits 2 without writing', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--name', 'X Tool'], { cwd, tty: false });
    expect(result.code).toBe(EXIT.failure);
    for (const flag of ['--type', '--short-name', '--description', '--version']) expect(result.stderr).toContain(flag);
    expect(result.stderr).not.toContain('--name');
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('without a terminal, --yes uses defaults and never reads stdin', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'my-tool', '--yes'], { cwd, tty: false });
    expect(result.code).toBe(EXIT.ok);
    expect(await manifestOf(path.join(cwd, 'my-tool'))).toMatchObject({ type: 'standalone', name: 'My Tool', shortName: 'My Tool', version: '1.0.0' });
    await expectCleanTool(path.join(cwd, 'my-tool'));
  });

  it('with --yes and no folder, creates my-tool', async () => {
    const cwd = await tempDir();
    expect((await runCli(['init', '--yes'], { cwd, tty: false })).code).toBe(EXIT.ok);
    expect(await listFiles(cwd)).toContain('my-tool/src/manifest.json');
  });

  it.each([
    [['--version', '1.0'], '--version'],
    [['--name', '  '], '--name'],
    [['--short-name', 'A short name well over the limit'], '--short-name'],
    [['--description', 'Does this. Does that.'], '--description'],
  ])('refuses %j before writing anything, naming %s (exit 2)', async (flags, named) => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes', ...flags], { cwd });
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toContain(named);
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('refuses an unknown --type (exit 2)', async () => {
    const cwd = await tempDir();
    expect((await runCli(['init', 'x', '--yes', '--type', 'sidebar'], { cwd })).code).toBe(EXIT.failure);
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('refuses a folder that is not empty; --force adds to it and keeps existing files', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'README.md'), 'mine');
    const refused = await runCli(['init', '.', '--yes'], { cwd });
    expect(refused.code).toBe(EXIT.failure);
    expect(await listFiles(cwd)).toEqual(['README.md']);

    const forced = await runCli(['init', '.', '--yes', '--force'], { cwd });
    expect(forced.code).toBe(EXIT.ok);
    expect(forced.stdout).toContain('README.md');
    expect(await readFile(path.join(cwd, 'README.md'), 'utf8')).toBe('mine');
    await expectCleanTool(cwd);
  });
});

describe('init --force on a project that exists', () => {
  it('says nothing was written, and names the tool and the zip its own files give', async () => {
    const cwd = await tempDir();
    expect((await runCli(['init', 'kitchen', '--yes', '--type', 'quoting_extension', '--name', 'Kitchen Estimator', '--short-name', 'Kitchen', '--version', '2.0.0'], { cwd })).code).toBe(EXIT.ok);
    const before = await listFiles(path.join(cwd, 'kitchen'));
    const again = await runCli(['init', 'kitchen', '--yes', '--force'], { cwd });
    expect(again.code).toBe(EXIT.ok);
    expect(again.stdout).not.toContain('Created');
    expect(again.stdout).toContain(`Nothing was written: kitchen already holds every file of the project (${before.length} files), and each was left as it was.`);
    expect(again.stdout).toContain('The tool there is Kitchen Estimator, a quoting_extension tool.');
    // The kept manifest decides the zip's name, not the defaults of this run.
    expect(again.stdout).toMatch(/^ {2}npm run pack +builds dist\/kitchen-2\.0\.0\.zip/m);
    expect(again.stdout).not.toContain('my-tool');
    expect(await listFiles(path.join(cwd, 'kitchen'))).toEqual(before);
  });

  it('lists what it added and what it kept, and says the kept manifest decides', async () => {
    const cwd = await tempDir();
    expect((await runCli(['init', 'kitchen', '--yes', '--short-name', 'Bench', '--version', '1.4.0'], { cwd })).code).toBe(EXIT.ok);
    await rm(path.join(cwd, 'kitchen', 'README.md'));
    await rm(path.join(cwd, 'kitchen', 'src', 'styles.css'));
    const again = await runCli(['init', 'kitchen', '--yes', '--force', '--type', 'quoting_extension'], { cwd });
    expect(again.code).toBe(EXIT.ok);
    expect(again.stdout).toContain('Added 2 files to kitchen: README.md, src/styles.css.');
    expect(again.stdout).toContain('These already existed and were left as they were:\n  .github/workflows/validate.yml');
    expect(again.stdout).toContain('The kept src/manifest.json decides what the tool is: Kitchen, a standalone tool.');
    expect(again.stdout).toMatch(/builds dist\/bench-1\.4\.0\.zip/);
  });
});

describe('init on a terminal', () => {
  it('asks for each missing value and uses the answers', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init'], {
      cwd,
      input: ['kitchen', '', '2', 'Kitchen Estimator', 'Kitchen', 'Prices kitchens from a few answers.', '0.1.0'],
    });
    expect(result).toMatchObject({ code: EXIT.ok, stderr: '' });
    const project = path.join(cwd, 'kitchen');
    expect(await manifestOf(project)).toMatchObject({
      type: 'quoting_extension',
      name: 'Kitchen Estimator',
      shortName: 'Kitchen',
      description: 'Prices kitchens from a few answers.',
      version: '0.1.0',
    });
    await expectCleanTool(project);
  });

  it('takes the defaults for empty answers, derived from the folder', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'site-survey'], { cwd, input: ['', '', '', '', '', ''] });
    expect(result.code).toBe(EXIT.ok);
    expect(await manifestOf(path.join(cwd, 'site-survey'))).toMatchObject({
      type: 'standalone',
      name: 'Site Survey',
      shortName: 'Site Survey',
      version: '1.0.0',
    });
  });

  it('asks only for what the flags leave out', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--type', 'standalone', '--name', 'Survey Desk', '--version', '1.1.0'], {
      cwd,
      input: ['', 'Survey', 'Shows surveys.'],
    });
    expect(result.code).toBe(EXIT.ok);
    expect(await manifestOf(path.join(cwd, 'x'))).toMatchObject({ name: 'Survey Desk', shortName: 'Survey', description: 'Shows surveys.', version: '1.1.0' });
  });

  it('asks again after an answer it cannot use', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x'], { cwd, input: ['', '3', '1', 'Survey Desk', '', '', 'one', '1.0.0-rc.1'] });
    expect(result.code).toBe(EXIT.ok);
    expect(await manifestOf(path.join(cwd, 'x'))).toMatchObject({ type: 'standalone', version: '1.0.0-rc.1' });
  });

  it('asks for another folder when the one given is not empty', async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, 'taken'), '');
    const result = await runCli(['init'], { cwd, input: ['.', 'fresh', '', '', '', '', '', ''] });
    expect(result.code).toBe(EXIT.ok);
    expect(await listFiles(cwd)).toContain('fresh/src/manifest.json');
  });

  it('stops with exit 2 and writes nothing when the input ends early', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x'], { cwd, input: ['2', 'Kitchen'] });
    expect(result.code).toBe(EXIT.failure);
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('--yes asks nothing, even on a terminal', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes'], { cwd, input: [] });
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).not.toContain('?');
  });
});

describe('the real binary', () => {
  it('without a terminal and flags, exits 2 at once instead of waiting for input', async () => {
    const cwd = await tempDir();
    const error = (await execFileAsync(process.execPath, [BIN, 'init', 'x'], { cwd, timeout: 15_000 }).catch((e: unknown) => e)) as {
      code?: number;
      killed?: boolean;
    };
    expect(error.killed).toBeFalsy();
    expect(error.code).toBe(EXIT.failure);
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('asks its questions through a pseudo-terminal', { timeout: 60_000 }, async () => {
    const cwd = await tempDir();
    const answers = ['pty-tool', '1', '2', 'Pty Estimator', 'Pty', 'Prices through a terminal.', '1.0.1'];
    // Python's pty module gives the child a real terminal, answering each prompt as it appears.
    const driver = String.raw`
import os, pty, sys, json
answers = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], [sys.argv[2], sys.argv[3], 'init'])
output = b''
sent = 0
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
    while sent < len(answers) and output.count(b'): ') > sent:
        os.write(fd, (answers[sent] + '\n').encode())
        sent += 1
_, status = os.waitpid(pid, 0)
sys.stdout.write(output.decode('utf-8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status))
`;
    const result = await execFileAsync('python3', ['-c', driver, JSON.stringify(answers), process.execPath, BIN], {
      cwd,
      timeout: 45_000,
      env: { ...process.env, NO_COLOR: '1' },
    }).catch((error: { code?: number; stdout?: string }) => ({ stdout: error.stdout ?? '', failed: error.code }));
    expect('failed' in result ? result.failed : 0).toBe(0);
    const project = path.join(cwd, 'pty-tool');
    expect(await manifestOf(project)).toMatchObject({ type: 'quoting_extension', name: 'Pty Estimator', shortName: 'Pty', version: '1.0.1' });
    await expectCleanTool(project);
  });
});
