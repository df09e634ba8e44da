import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { anchorsOf, linksOf, markdownFiles, ROOT, slug, unclosedFence } from './markdown.js';

/*
 * Every relative link in the README and docs/ leads somewhere: the file exists, and a `#fragment`
 * is an anchor of the page it points at (a heading's, as GitHub makes them, or an `<a id>`).
 */

/** `file:line: target (why)` for each link of these files that leads nowhere. */
function brokenLinks(root: string, files: readonly string[]): string[] {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let found = anchors.get(file);
    if (!found) anchors.set(file, (found = anchorsOf(readFileSync(file, 'utf8'))));
    return found;
  };
  for (const file of files) {
    const absolute = path.join(root, file);
    for (const { line, target } of linksOf(readFileSync(absolute, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not ours to check
      const [pathPart = '', fragment] = target.split('#') as [string, string | undefined];
      const destination = pathPart === '' ? absolute : path.resolve(path.dirname(absolute), decodeURIComponent(pathPart));
      const where = `${file}:${line}: ${target}`;
      if (!existsSync(destination)) {
        broken.push(`${where} (no such file)`);
      } else if (fragment !== undefined) {
        if (statSync(destination).isDirectory() || !destination.endsWith('.md')) broken.push(`${where} (a fragment into something that is not a page)`);
        else if (!anchorsIn(destination).has(decodeURIComponent(fragment))) broken.push(`${where} (no such anchor in ${path.relative(root, destination)})`);
      }
    }
  }
  return broken;
}

describe('the links of README.md and docs/', () => {
  it('all resolve: the file exists and the fragment is an anchor of it', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it('are all read: no page leaves a code block open, which would hide the links after it', () => {
    const open = markdownFiles().map((file) => [file, unclosedFence(readFileSync(path.join(ROOT, file), 'utf8'))]);
    expect(open.filter(([, line]) => line !== undefined)).toEqual([]);
    expect(unclosedFence('```sh\nls\n```\n\n```yaml\njobs:\n')).toBe(5);
  });

  it('are checked at all: every page but the README is linked from the docs index', () => {
    const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
    const linked = new Set(linksOf(index).map(({ target }) => target.split('#')[0]));
    expect(markdownFiles().filter((file) => file.startsWith('docs/') && file !== 'docs/README.md' && !linked.has(path.basename(file)))).toEqual([]);
  });
});

describe('the link check', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('The REST API v1')).toBe('the-rest-api-v1');
    expect(slug('Problem codes (in `details`)')).toBe('problem-codes-in-details');
    expect(slug('Any other dev server: `dev --url`')).toBe('any-other-dev-server-dev---url');
    expect(slug('Starting a project: `init --template`')).toBe('starting-a-project-init---template');
    expect(slug('The Vite plugin: `pipeline-tool/vite`')).toBe('the-vite-plugin-pipeline-toolvite');
    expect(slug("Where the platform's documentation is silent")).toBe('where-the-platforms-documentation-is-silent');
    expect(slug('snake_case and [a link](x.md)')).toBe('snake_case-and-a-link');
    expect([...anchorsOf('# A\n\n## A\n\n```md\n## A\n```\n\n## A\n<a id="rule-x"></a>\n')]).toEqual(['a', 'a-1', 'a-2', 'rule-x']);
  });

  it('reports a missing file, a missing anchor, and a link whose anchor is in a code block only', () => {
    const root = tempDir('pipeline-tool-links-');
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'README.md'), '# Tool\n\nSee [a](docs/a.md#usage), [b](docs/b.md), [c](docs/a.md#nope), [d](#tool), [e](#gone).\n`[f](nowhere.md)`\n');
    writeFileSync(path.join(root, 'docs/a.md'), '# A\n\n## Usage\n\n```sh\n## Hidden\n```\n\n[back](../README.md#tool) [hidden](#hidden)\n');
    expect(brokenLinks(root, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:3: docs/b.md (no such file)',
      'README.md:3: docs/a.md#nope (no such anchor in docs/a.md)',
      'README.md:3: #gone (no such anchor in README.md)',
      'docs/a.md:9: #hidden (no such anchor in docs/a.md)',
    ]);
  });
});
