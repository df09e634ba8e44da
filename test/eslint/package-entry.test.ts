import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerProject, typeCheckInConsumer } from '../helpers/consumer.js';

/*
 * 'pipeline-tool/eslint' as a project's eslint.config sees it: resolved through "exports" (built by
 * `npm run build`), typed, and loaded in plain Node.
 */

describe("'pipeline-tool/eslint'", () => {
  it('loads in plain Node: one plugin object, its recommended config naming it', () => {
    const project = consumerProject('pipeline-tool-eslint-consumer-');
    writeFileSync(
      path.join(project, 'use.mjs'),
      `import pipeline from 'pipeline-tool/eslint';
const [recommended] = pipeline.configs.recommended;
console.log(JSON.stringify({ name: pipeline.meta.name, rules: Object.keys(pipeline.rules).sort(), same: recommended.plugins['pipeline-tool'] === pipeline }));`,
    );
    const output = execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({
      name: 'pipeline-tool',
      rules: ['bridge-deprecated', 'bridge-literal-range', 'bridge-tool-type', 'bridge-unknown-method', 'browser-storage', 'dialog-call', 'unsafe-html'],
      same: true,
    });
  });

  it('type-checks an eslint.config.ts', { timeout: 120_000 }, () => {
    const project = consumerProject('pipeline-tool-eslint-consumer-');
    const check = typeCheckInConsumer(
      project,
      `import pipeline from 'pipeline-tool/eslint';
export default [...pipeline.configs.recommended, { rules: { 'pipeline-tool/unsafe-html': 'off' } }];
const version: string = pipeline.meta.version;
export const rules = Object.keys(pipeline.rules).length + version.length;`,
    );
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});
