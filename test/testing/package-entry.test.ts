import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerProject, typeCheckInConsumer } from '../helpers/consumer.js';

/*
 * 'pipeline-tool/testing' as a tool project sees it: resolved through "exports" (built by
 * `npm run build`), typed, and usable in plain Node.
 */

describe("'pipeline-tool/testing'", () => {
  it('runs in plain Node', () => {
    const project = consumerProject('pipeline-tool-testing-consumer-');
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
    const project = consumerProject('pipeline-tool-testing-consumer-');
    const check = typeCheckInConsumer(
      project,
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
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});
