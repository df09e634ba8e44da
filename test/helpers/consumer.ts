import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './bundles.js';

/*
 * A project that depends on pipeline-tool, installed as npm links a package: imports resolve
 * through package.json "exports", so tests see the package as an author's project does.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

export function consumerProject(prefix = 'pipeline-tool-consumer-'): string {
  const project = tempDir(prefix);
  mkdirSync(path.join(project, 'node_modules'));
  symlinkSync(ROOT, path.join(project, 'node_modules', 'pipeline-tool'), 'dir');
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return project;
}

/** Writes `source` as use.ts in the project and runs tsc over it, strict, as a Node.js project would. */
export function typeCheckInConsumer(project: string, source: string): { stdout: string; status: number | null } {
  writeFileSync(path.join(project, 'use.ts'), source);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        // A Node.js project has @types/node; this one borrows ours.
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        types: ['node'],
      },
      files: ['use.ts'],
    }),
  );
  const { stdout, status } = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
  return { stdout, status };
}
