import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { goodFiles, tempDir, writeFolder } from '../helpers/bundles.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** A consumer project with the package installed as npm links it: resolved through "exports". */
function consumer(): string {
  const project = tempDir('pipeline-tool-consumer-');
  mkdirSync(path.join(project, 'node_modules'));
  symlinkSync(ROOT, path.join(project, 'node_modules', 'pipeline-tool'), 'dir');
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return project;
}

describe('the package as a dependency sees it', () => {
  it("import { validateBundle, packFolder } from 'pipeline-tool' works from another project", () => {
    const project = consumer();
    const tool = writeFolder(goodFiles());
    writeFileSync(
      path.join(project, 'use.mjs'),
      `import { validateBundle, packFolder, createPlatform } from 'pipeline-tool';
const report = await validateBundle(process.argv[2]);
const packed = await packFolder(process.argv[2], { dryRun: true });
const platform = createPlatform({ toolId: 'demo', toolType: 'standalone' });
console.log(JSON.stringify({ ok: report.ok, packed: packed.ok, files: packed.files, sdk: typeof platform.sdk.customers.list }));`,
    );
    const output = execFileSync(process.execPath, ['use.mjs', tool], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ ok: true, packed: true, files: 4, sdk: 'function' });
  });

  // tsc over a whole consumer project: seconds alone, past half a minute on a busy two-core machine.
  it("the types of 'pipeline-tool' and 'pipeline-tool/bridge' type-check a consumer's code", { timeout: 120_000 }, () => {
    const project = consumer();
    writeFileSync(
      path.join(project, 'use.ts'),
      `import { validateBundle, type Report } from 'pipeline-tool';
import type { BridgeAddLineDto, PipelineSdk } from 'pipeline-tool/bridge';
const line: BridgeAddLineDto = { qty: 2, unitPrice: 10, taxRate: 0.15 };
export async function check(sdk: PipelineSdk): Promise<Report> {
  await sdk.quotes.addLines([line]);
  return validateBundle('bundle.zip');
}
// @ts-expect-error qty is a number
const wrong: BridgeAddLineDto = { qty: 'two', unitPrice: 10, taxRate: 0.15 };
export { wrong };`,
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
          // A Node.js project has @types/node; this one borrows ours.
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
