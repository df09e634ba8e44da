import { stripVTControlCharacters } from 'node:util';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from 'vite';
import { writeFolder } from '../helpers/bundles.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A Vite project in a temporary folder. Its node_modules links to each package of this repository
 * (vite, react, vue…) and to the repository itself as pipeline-tool, so nothing is installed and
 * Vite's own cache stays in the temporary folder.
 */
export function viteProject(files: Record<string, string | Buffer>): string {
  const root = writeFolder(files);
  const modules = path.join(root, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(REPO, 'node_modules'))) {
    if (name.startsWith('.')) continue;
    symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name));
  }
  symlinkSync(REPO, path.join(modules, 'pipeline-tool'));
  return root;
}

export interface CapturedLogger extends Logger {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string }[];
  text(level?: 'info' | 'warn' | 'error'): string;
}

/**
 * A Vite logger that keeps what it is told, as the terminal would show it but without colour (Vite
 * colours its lines wherever CI is set, terminal or not), and without printing.
 */
export function captureLogger(): CapturedLogger {
  const base = createLogger('info', { allowClearScreen: false });
  const lines: CapturedLogger['lines'] = [];
  const keep = (level: 'info' | 'warn' | 'error') => (message: string) => void lines.push({ level, message: stripVTControlCharacters(message) });
  return {
    ...base,
    info: keep('info'),
    warn: keep('warn'),
    warnOnce: keep('warn'),
    error: keep('error'),
    clearScreen: () => {},
    lines,
    text: (level) =>
      lines
        .filter((line) => level === undefined || line.level === level)
        .map((line) => line.message)
        .join('\n'),
  };
}

export const MANIFEST = {
  name: 'Counter Tool',
  shortName: 'Counter',
  type: 'quoting_extension',
  version: '1.0.0',
  description: 'Counts things.',
  entry: 'index.html',
};

export const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Counter</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.ts"></script></body>
</html>
`;
