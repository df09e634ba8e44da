import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * scripts/template-versions.mjs keeps the templates' dependencies at the versions this repository
 * installs and tests: exact, and equal to package-lock.json's. The end-to-end test installs the
 * templates' projects from the registry, so a version written here is a version tried there.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(ROOT, 'scripts/template-versions.mjs');
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
}

/** A repository of two template layers with a package.json, and a lockfile, to change freely. */
function copyOfRepository(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'template-versions-'));
  made.push(root);
  cpSync(path.join(ROOT, 'package-lock.json'), path.join(root, 'package-lock.json'));
  for (const template of ['vanilla', 'react']) {
    mkdirSync(path.join(root, 'templates', template), { recursive: true });
    cpSync(path.join(ROOT, 'templates', template, 'package.json'), path.join(root, 'templates', template, 'package.json'));
  }
  return root;
}

const lockedVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> }).packages[`node_modules/${name}`]!.version;

describe('the templates depend on the versions this repository tests', () => {
  it('every template dependency is the exact version package-lock.json holds here', () => {
    const checked = run(['--check']);
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    const react = JSON.parse(readFileSync(path.join(ROOT, 'templates/react/package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(react.devDependencies['vite']).toBe(lockedVersion('vite'));
    expect(react.devDependencies['vite']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('--check names a range or another version, and the script writes the tested one in its place', () => {
    const root = copyOfRepository();
    const file = path.join(root, 'templates/react/package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> };
    pkg.devDependencies['vite'] = '^8.0.0';
    pkg.dependencies['react'] = '18.0.0';
    writeFileSync(file, JSON.stringify(pkg, null, 2));
    const checked = run(['--check', '--root', root]);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(`templates/react: vite is "^8.0.0", but this repository tests ${lockedVersion('vite')}.`);
    expect(checked.stderr).toContain(`templates/react: react is "18.0.0", but this repository tests ${lockedVersion('react')}.`);
    expect(checked.stderr).toContain('npm run template-versions');

    execFileSync(process.execPath, [SCRIPT, '--root', root]);
    const fixed = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
    expect(fixed.devDependencies['vite']).toBe(lockedVersion('vite'));
    expect(fixed.dependencies['react']).toBe(lockedVersion('react'));
    // The kit itself is init's to write, never pinned here.
    expect(fixed.devDependencies['pipeline-tool']).toBe(pkg.devDependencies['pipeline-tool']);
    expect(run(['--check', '--root', root]).status).toBe(0);
  });

  it('a dependency this repository does not install cannot be written: it is named, with the command that adds it', () => {
    const root = copyOfRepository();
    const file = path.join(root, 'templates/vanilla/package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { devDependencies: Record<string, string> };
    pkg.devDependencies['left-pad-never-installed'] = '1.0.0';
    writeFileSync(file, JSON.stringify(pkg, null, 2));
    for (const args of [['--check', '--root', root], ['--root', root]]) {
      const ran = run(args);
      expect(ran.status).toBe(1);
      expect(ran.stderr).toContain('templates/vanilla: left-pad-never-installed is not installed by this repository; add it with npm install -D left-pad-never-installed');
    }
  });
});
