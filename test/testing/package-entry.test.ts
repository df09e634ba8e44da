import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';

/*
 * 'pipeline-tool/testing' as a tool project sees it: resolved through "exports" (built by
 * `npm run build`), typed, and usable in plain Node.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function consumer(): string {
  const project = tempDir('pipeline-tool-testing-consumer-');
  mkdirSync(path.join(project, 'node_modules'));
  symlinkSync(ROOT, path.join(project, 'node_modules', 'pipeline-tool'), 'dir');
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return project;
}

describe("'pipeline-tool/testing'", () => {
  it('runs in plain Node', () => {
    const project = consumer();
    writeFileSync(
      path.join(project, 'use.mjs'),
      `import { createTestHost } from 'pipeline-tool/testing';
const host = await createTestHost({ manifest: { name: 'Plain', type: 'quoting_extension' } });
await host.pipeline.quotes.addLines([{ description: 'x', qty: 2, unitPrice: 5, taxRate: 0.15 }]);
console.log(JSON.stringify({ totals: host.editorView().totals, calls: host.calls.map((call) => call.status) }));`,
    );
    const output = execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ totals: { nett: 10, tax: 1.5, total: 11.5 }, calls: ['resolved'] });
  });

  // tsc reads the whole library's declarations: slow on a busy machine.
  it('type-checks a test written in TypeScript', { timeout: 120_000 }, () => {
    const project = consumer();
    writeFileSync(
      path.join(project, 'use.ts'),
      `import { createTestHost, loadTool, type CallRecord, type LoadedTool } from 'pipeline-tool/testing';
export async function check(): Promise<CallRecord[]> {
  const host = await createTestHost({ toolType: 'quoting_extension', sdkVersion: '2.4.0', settings: { units: 'metric' } });
  await host.pipeline.quotes.addLines([{ qty: 1, unitPrice: 1, taxRate: 0.15 }]);
  const tool: LoadedTool = await loadTool('src');
  await tool.click('#send');
  const total: number = tool.host.editorView().totals.total;
  return [...host.calls, ...tool.host.calls].filter(() => total > 0);
}
// @ts-expect-error toolType is one of two names
export const wrong = createTestHost({ toolType: 'extension' });`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          typeRoots: [path.join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    const check = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});
