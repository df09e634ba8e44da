import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { atTestEnd } from '../helpers/file-end.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO, 'bin/pipeline-tool.js');
export const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
export const execFileAsync = promisify(execFile);

const made: string[] = [];

/** A fresh temporary folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pipeline-init-'));
  made.push(dir);
  return dir;
}

atTestEnd(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Every file under a folder, as sorted slash-separated relative paths. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process. With `input`, stdin is a stream that reports itself as a terminal
 * and receives those lines (all at once, as a fast typist or a paste would).
 */
export async function runCli(args: string[], options: { cwd: string; input?: string[]; tty?: boolean }): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  if (options.input) stdin.end(options.input.map((line) => `${line}\n`).join(''));
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdin,
    stdinIsTTY: options.tty ?? options.input !== undefined,
    env: { NO_COLOR: '1' },
    cwd: options.cwd,
  };
  const code = await run(['node', 'pipeline-tool', ...args], io);
  return { code, stdout, stderr };
}

/** Every file a new project holds, as sorted relative paths. */
export const EXPECTED_FILES = [
  '.github/workflows/validate.yml',
  '.gitignore',
  'README.md',
  'eslint.config.mjs',
  'jsconfig.json',
  'package.json',
  'pipeline-tool.config.json',
  'pipeline.d.ts',
  'src/app.js',
  'src/index.html',
  'src/manifest.json',
  'src/styles.css',
  'test/tool.test.mjs',
  // This copy of pipeline-tool is not the registry's: init packs it into the project.
  `vendor/pipeline-tool-${JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version as string}.tgz`,
];
