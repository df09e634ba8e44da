import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, STACK_TRACE } from '../helpers/cli.js';
import { INDEX_HTML, MANIFEST, REPO, viteProject } from './helpers.js';

/*
 * `vite build` as authors run it (Vite's own command, the plugin loaded from dist/ as a project loads
 * it), with a package whose stylesheet names its font in a refused format only: the build fails as
 * Vite says its own errors, the message alone, naming the author's import that brought the font in,
 * and each fix it offers works; and a build whose output validate refuses.
 */

const VITE = path.join(REPO, 'node_modules', 'vite', 'bin', 'vite.js');
const FONT_BYTES = 20_000;

/** Bytes that are not worth compressing. */
const bytes = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => (i * 7919) % 251));

/** The project: src/main.tsx imports the package's stylesheet `sheet`; vite.config.mjs passes `options` to the plugin, and starts with `config`. */
function project(sheet: string, options = '', config = ''): string {
  const root = viteProject({
    'index.html': INDEX_HTML.replace('main.ts', 'main.tsx'),
    'public/manifest.json': JSON.stringify(MANIFEST),
    'src/main.tsx': `import 'old-icons/${sheet}';\n\ndocument.getElementById('root')!.textContent = 'ready';\n`,
    'vite.config.mjs': `import pipeline from 'pipeline-tool/vite';\n\nexport default { ${config}plugins: [pipeline(${options})], resolve: { preserveSymlinks: true } };\n`,
  });
  // A package of the project's own node_modules, as npm installs one.
  const pkg = path.join(root, 'node_modules', 'old-icons');
  mkdirSync(path.join(pkg, 'fonts'), { recursive: true });
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'old-icons', version: '1.0.0' }));
  writeFileSync(path.join(pkg, 'icons.css'), "@font-face { font-family: OldIcons; src: url('./fonts/icons.ttf') format('truetype'); }\n.icon { font-family: OldIcons; }\n");
  writeFileSync(path.join(pkg, 'icons-woff2.css'), "@font-face { font-family: OldIcons; src: url('./fonts/icons.woff2') format('woff2'); }\n.icon { font-family: OldIcons; }\n");
  writeFileSync(path.join(pkg, 'fonts', 'icons.ttf'), bytes(FONT_BYTES));
  writeFileSync(path.join(pkg, 'fonts', 'icons.woff2'), bytes(FONT_BYTES));
  return root;
}

const viteBuild = (root: string) => {
  const result = runCli(['build'], { cwd: root, bin: VITE, env: { NO_COLOR: '1', CI: undefined } });
  return { ...result, stdout: stripVTControlCharacters(result.stdout), stderr: stripVTControlCharacters(result.stderr) };
};
const built = (root: string) => (existsSync(path.join(root, 'dist')) ? readdirSync(path.join(root, 'dist'), { recursive: true }).map(String) : []);

describe('vite build with a package whose font is only in a refused format', () => {
  let root: string;
  let result: ReturnType<typeof viteBuild>;
  beforeAll(() => {
    root = project('icons.css');
    result = viteBuild(root);
  }, 120_000);

  it('fails with the message alone, no stack trace, naming the author\u2019s import that brought the font in', () => {
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error during build:\n[pipeline-tool] the marketplace would refuse an asset of this build:\n' +
        `  node_modules/old-icons/fonts/icons.ttf (imported by node_modules/old-icons/icons.css, which src/main.tsx imports): .ttf is not accepted by the marketplace, and at ${FONT_BYTES} bytes it is too large to inline (over 4096); it comes from a package: import a stylesheet of the package that names only .woff2 fonts, or let the build inline it with pipeline({ inlineLimit: ${FONT_BYTES + 1} }).\n`,
    );
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr).not.toContain('RolldownError');
    expect(result.stderr).not.toContain('[Getter/Setter]');
    // Nothing of the refused build is written: no page, no script, no font.
    expect(built(root).filter((file) => file !== 'manifest.json')).toEqual([]);
  });

  it('builds with the inlineLimit the message names', () => {
    const fixed = project('icons.css', `{ inlineLimit: ${FONT_BYTES + 1} }`);
    const again = viteBuild(fixed);
    expect(again.stderr).not.toContain('error during build');
    expect(again.code).toBe(0);
    expect(built(fixed).some((file) => file.endsWith('.ttf'))).toBe(false);
  }, 120_000);

  it('builds with the package\u2019s stylesheet that names .woff2 only', () => {
    const fixed = project('icons-woff2.css');
    const again = viteBuild(fixed);
    expect(again.code).toBe(0);
    expect(built(fixed).some((file) => file.endsWith('.woff2'))).toBe(true);
  }, 120_000);
});

describe('vite build of a tool that validate refuses', () => {
  it('fails with validate\u2019s errors alone, no stack trace', () => {
    const root = project('icons-woff2.css');
    writeFileSync(path.join(root, 'public', 'manifest.json'), JSON.stringify({ ...MANIFEST, version: undefined }));
    const result = viteBuild(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error during build:\n[pipeline-tool] dist/ would be refused: 1 error from pipeline-tool validate.\n  dist/manifest.json: manifest.json has no "version"');
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.stderr).not.toContain('[Getter/Setter]');
  }, 120_000);
});

describe('vite build with a base that is not relative', () => {
  it('fails with the message alone, no stack trace', () => {
    const result = viteBuild(project('icons-woff2.css', '', "base: '/tool/', "));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error during build:\n[pipeline-tool] base is "/tool/", but a tool\'s files are served from an address nobody knows in advance');
    expect(result.stderr).not.toMatch(STACK_TRACE);
  }, 120_000);
});
