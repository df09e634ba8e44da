import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTemplate } from '../../src/core/init/index.js';

/*
 * docs/init.md tells authors what the scripts of a new project run; the templates' package.json
 * files are what they really run. The two must say the same.
 */

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');

describe('docs/init.md', () => {
  it.each(['standalone', 'quoting_extension'] as const)('names the scripts the %s template really has', async (type) => {
    const stored = (await readTemplate(type)).find((file) => file.path === 'package.json')!;
    const scripts = (JSON.parse(stored.contents.toString('utf8')) as { scripts: Record<string, string> }).scripts;
    const documented = [...read('docs/init.md').matchAll(/`npm run (\w+)` is `([^`]+)`/g)].map((match) => [match[1]!, match[2]!] as const);
    expect(documented.map(([name]) => name).sort()).toEqual(['pack', 'validate']);
    for (const [name, command] of documented) expect(command, name).toBe(scripts[name]);
  });
});
