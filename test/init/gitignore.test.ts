import { describe, expect, it } from 'vitest';
import { readTemplate, TEMPLATE_NAMES, TOOL_TYPES } from '../../src/core/init/index.js';

/*
 * What a template's CI workflow writes into the project (the SARIF log, say) must not be left as
 * an untracked file an author might commit: each template's .gitignore names it.
 */

const templates = TEMPLATE_NAMES.flatMap((template) => TOOL_TYPES.map((type) => [template, type] as const));

describe.each(templates)('the %s %s template', (template, type) => {
  const read = async (file: string) => (await readTemplate(type, template)).find((stored) => stored.path === file)!.contents.toString('utf8');

  it('ignores every file its CI workflow writes with a shell redirect', async () => {
    const written = [...(await read('_github/workflows/validate.yml')).matchAll(/>\s*([\w.-]+\.[a-z]+)\b/g)].map((match) => match[1]!);
    expect(written).toContain('pipeline-tool.sarif');
    const ignored = (await read('_gitignore')).split('\n');
    for (const file of written) expect(ignored).toContain(file);
  });
});
