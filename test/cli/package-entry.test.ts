import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodFiles, writeFolder } from '../helpers/bundles.js';
import { consumerProject, typeCheckInConsumer } from '../helpers/consumer.js';

describe('the package as a dependency sees it', () => {
  it("import { validateBundle, packFolder } from 'pipeline-tool' works from another project", () => {
    const project = consumerProject();
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
    const project = consumerProject();
    const check = typeCheckInConsumer(
      project,
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
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});
