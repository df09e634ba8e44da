import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it, vi } from 'vitest';
import pipeline from '../../src/eslint/index.js';
import type * as Scripts from '../../src/eslint/scripts.js';
import { writeFolder } from '../helpers/bundles.js';

// A fault inside pipeline-tool, made to happen on one file only.
vi.mock('../../src/eslint/scripts.js', async (original) => {
  const actual = await original<typeof Scripts>();
  return {
    ...actual,
    scriptsOf: (text: string, filename: string) => {
      if (filename.endsWith('broken.js')) throw new TypeError('something inside went wrong');
      return actual.scriptsOf(text, filename);
    },
  };
});

describe('a fault inside the plugin', () => {
  it('is one message on the file it happened in, asking for a report; the run goes on', async () => {
    const root = writeFolder({ 'package.json': '{}', 'src/broken.js': "alert('a');\nalert('b');\n", 'src/fine.js': "alert('c');\n" });
    const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [...pipeline.configs.recommended] });
    const results = await eslint.lintFiles(['src']);
    const byFile = Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`)]));
    expect(byFile['broken.js']).toEqual([expect.stringMatching(/^1:1 pipeline-tool\/\S+ pipeline-tool could not check this file, which is a bug in pipeline-tool: TypeError: something inside went wrong.*Please report it/)]);
    expect(byFile['fine.js']).toEqual([expect.stringMatching(/^1:1 pipeline-tool\/dialog-call alert\(\) does nothing/)]);
  });
});
