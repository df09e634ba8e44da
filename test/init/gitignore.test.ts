import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * What a template's CI workflow writes into the project (the SARIF log, say) must not be left as
 * an untracked file an author might commit: each template's .gitignore names it.
 */

const templates = readdirSync(new URL('../../templates/', import.meta.url));

describe.each(templates)('the %s template', (template) => {
  const read = (file: string) => readFileSync(new URL(`../../templates/${template}/${file}`, import.meta.url), 'utf8');

  it('ignores every file its CI workflow writes with a shell redirect', () => {
    const written = [...read('_github/workflows/validate.yml').matchAll(/>\s*([\w.-]+\.[a-z]+)\b/g)].map((match) => match[1]!);
    expect(written).toContain('pipeline-tool.sarif');
    const ignored = read('_gitignore').split('\n');
    for (const file of written) expect(ignored).toContain(file);
  });
});
