import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium } from '../dev/browser.js';
import { runCli } from '../helpers/cli.js';
import { goodFiles, tempDir, writeFolder } from '../helpers/bundles.js';
import { buildTemplate } from '../helpers/template-app.js';
import { readTemplate } from '../../src/core/init/index.js';
import { SETTLE_MS, startTestServer } from '../dev/helpers.js';
import { packFolder } from '../../src/core/pack/pack-folder.js';
import { bundleLimits, sizeLine } from '../../src/core/report/limits.js';

/*
 * The page `pack --report` writes, opened from file:// in Chromium for the vanilla, React and Vue
 * templates: it shows the limits, the files, and (through the source maps) the npm packages and
 * the author's sources; its numbers are the ones pack prints; it asks for nothing over the network.
 */

const available = requireChromium();

interface PackJson {
  ok: boolean;
  written: boolean;
  output: string;
  limits: Record<'files' | 'zipBytes' | 'unpackedBytes', { used: number; limit: number }>;
  included: { path: string; size: number; compressedSize: number }[];
  sizes: { page: string; packages: { name: string; raw: number; zipped: number }[]; sources: { name: string; raw: number; zipped: number }[] };
}

interface Shown {
  limits: { limit: number; used: number }[];
  rows: Record<string, { name: string; raw: number; zipped: number }[]>;
  treemapNames: string[];
  heading: string;
  sizeLine: string;
  requests: string[];
}

describe.skipIf(!available)('the bundle report page in Chromium', () => {
  let browser: Browser;
  const projects = new Map<string, { project: string; tool: string }>();

  beforeAll(async () => {
    browser = await launchChromium();
    const vanilla = path.join(tempDir(), 'vanilla');
    for (const file of await readTemplate('standalone')) {
      if (!file.path.startsWith('src/')) continue;
      mkdirSync(path.dirname(path.join(vanilla, file.path.slice(4))), { recursive: true });
      writeFileSync(path.join(vanilla, file.path.slice(4)), file.contents);
    }
    projects.set('vanilla', { project: vanilla, tool: vanilla });
    for (const template of ['react', 'vue'] as const) {
      const { project, dist } = await buildTemplate(template);
      projects.set(template, { project, tool: dist });
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows hostile names as text: nothing in a file, package or source name runs', async () => {
    const attack = '<img src=x onerror="window.__pwned=1;alert(1)">';
    const script = 'document.body.append("ready");\n';
    const map = {
      version: 3,
      sources: [`node_modules/${attack}/index.js`, `src/</script><script>window.__pwned=2</script>.ts`, 'src/\u2028<!--.ts'],
      mappings: 'AAAA,SCAA,eCAA',
      names: [],
    };
    const folder = writeFolder({
      ...goodFiles(),
      'app.js': script,
      'app.js.map': JSON.stringify(map),
      [`${attack}.js`]: script,
    });
    const project = tempDir();
    // Sources are named from the working folder: the tool folder here.
    const ran = runCli(['validate', folder, '--report', path.join(project, 'page.html')], { cwd: folder });
    expect(ran.code).toBe(1); // the file name is unsafe: an error, listed on the page
    const html = readFileSync(path.join(project, 'page.html'), 'utf8');
    expect(html).not.toContain('</script><script>window');
    expect(html).not.toContain('<img src=x');

    const page: Page = await (await browser.newContext()).newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(path.join(project, 'page.html')).href);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: SETTLE_MS });
    const seen = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      images: document.images.length,
      names: Array.from(document.querySelectorAll<HTMLElement>('tr[data-name]')).map((row) => row.dataset['name']),
      findings: document.getElementById('findings')!.textContent,
    }));
    await page.close();
    expect(dialogs).toEqual([]);
    expect(seen.pwned).toBeUndefined();
    expect(seen.images).toBe(0);
    expect(seen.names).toEqual(expect.arrayContaining([`${attack}.js`, attack, 'src/</script><script>window.__pwned=2</script>.ts', 'src/\u2028<!--.ts']));
    expect(seen.findings).toContain(`${attack}.js`);
  });

  /** Opens the page from file:// and reads what it shows, with every request it made. */
  async function open(file: string): Promise<Shown> {
    const page: Page = await (await browser.newContext()).newPage();
    const url = pathToFileURL(file).href;
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(url);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: SETTLE_MS });
    const shown = await page.evaluate(() => {
      const rows: Record<string, { name: string; raw: number; zipped: number }[]> = {};
      for (const section of Array.from(document.querySelectorAll('section'))) {
        rows[section.id] = Array.from(section.querySelectorAll<HTMLElement>('tr[data-name]')).map((row) => ({
          name: row.dataset['name']!,
          raw: Number(row.dataset['raw']),
          zipped: Number(row.dataset['zipped']),
        }));
      }
      return {
        limits: Array.from(document.querySelectorAll<HTMLElement>('.limit')).map((row) => ({ limit: Number(row.dataset['limit']), used: Number(row.dataset['used']) })),
        rows,
        treemapNames: Array.from(document.querySelectorAll<SVGGElement>('svg.treemap g[data-name]')).map((group) => group.dataset['name']!),
        heading: document.querySelector('h1')!.textContent!,
        sizeLine: document.querySelector('.size-line')!.textContent!,
        text: document.body.innerText,
      };
    });
    await page.close();
    expect(errors).toEqual([]);
    return { ...shown, requests: requests.filter((request) => request !== url) };
  }

  function pack(name: string): PackJson {
    const { project, tool } = projects.get(name)!;
    const ran = runCli(['pack', tool, '--report', '--force', '--format', 'json'], { cwd: project });
    expect(ran.stderr).toBe('');
    const result = JSON.parse(ran.stdout) as PackJson;
    expect(result.written).toBe(true);
    return result;
  }

  function expectPackNumbers(shown: Shown, result: PackJson, project: string): void {
    // The limits, in the order the page shows them, with pack's figures; the zip's is the file's size.
    const { zipBytes, unpackedBytes, files } = result.limits;
    expect(shown.limits).toEqual([zipBytes, unpackedBytes, files].map(({ used, limit }) => ({ used, limit })));
    expect(zipBytes.used).toBe(statSync(path.resolve(project, result.output)).size);
    expect(shown.sizeLine).toContain(`${zipBytes.used.toLocaleString('en-US')} bytes zipped of 10,000,000`);
    expect(shown.sizeLine).toContain(`${unpackedBytes.used.toLocaleString('en-US')} unpacked of 50,000,000`);
    expect(shown.sizeLine).toContain(`${files.used} files of 200`);
    // Each file with the bytes pack wrote for it.
    expect(shown.rows['files']).toEqual(result.included.map((file) => ({ name: file.path, raw: file.size, zipped: file.compressedSize })));
    expect(shown.requests).toEqual([]);
  }

  it('vanilla: the files against the limits, with pack’s numbers; no maps, so no packages', async () => {
    const result = pack('vanilla');
    const { project } = projects.get('vanilla')!;
    expect(path.resolve(project, result.sizes.page)).toBe(path.resolve(project, result.output).replace(/\.zip$/, '.report.html'));
    const shown = await open(path.resolve(project, result.sizes.page));
    expectPackNumbers(shown, result, project);
    expect(shown.heading).toContain(path.basename(result.output));
    expect(shown.treemapNames).toEqual(expect.arrayContaining(['app.js', 'index.html', 'manifest.json', 'styles.css']));
    expect(shown.rows['packages']).toBeUndefined();
  });

  it.each([
    ['react', 'react-dom', 'src/App.tsx'],
    ['vue', '@vue/runtime-core', 'src/App.vue'],
  ])('%s: the packages and the author’s sources through the maps, with pack’s numbers', async (name, library, own) => {
    const result = pack(name);
    const { project } = projects.get(name)!;
    const shown = await open(path.resolve(project, result.sizes.page));
    expectPackNumbers(shown, result, project);
    const packages = shown.rows['packages']!;
    expect(packages).toEqual(result.sizes.packages);
    expect(packages.map((row) => row.name)).toContain(library);
    if (name === 'vue') expect(packages.map((row) => row.name).some((row) => row === 'vue' || row.startsWith('@vue/'))).toBe(true);
    expect(packages.find((row) => row.name === library)!.raw).toBeGreaterThan(10_000);
    const sources = shown.rows['sources']!.filter((row) => row.name !== '(not mapped)');
    expect(sources).toEqual(result.sizes.sources);
    expect(sources.map((row) => row.name)).toContain(own);
    // Both pictures: the files, and where their bytes come from.
    expect(shown.treemapNames).toEqual(expect.arrayContaining([`node_modules/${library}`, own, 'manifest.json']));
    // Packages and sources (and what no mapping covers) add up to the mapped script's bytes, raw and zipped.
    const script = result.included.find((file) => file.path.endsWith('.js'))!;
    const all = shown.rows['sources']!.concat(packages);
    const otherMapped = result.included.filter((file) => file.path.endsWith('.css'));
    const mappedTotal = [script, ...otherMapped].reduce((sum, file) => sum + file.size, 0);
    expect(all.reduce((sum, row) => sum + row.raw, 0)).toBeLessThanOrEqual(mappedTotal);
    expect(all.reduce((sum, row) => sum + row.raw, 0)).toBeGreaterThanOrEqual(script.size);
  });

  it('dev: the findings panel shows the size line and links to the page for the folder it serves', async () => {
    const { project, tool } = projects.get('react')!;
    const server = await startTestServer({ root: tool, sourceRoot: project, watch: false });
    const packed = await packFolder(tool, { dryRun: true, out: `${path.join(project, 'release')}${path.sep}` });
    const expected = sizeLine(bundleLimits(packed));
    const state = (await (await fetch(new URL('/__pipeline/state', server.url))).json()) as { findings: { sizeLine: string } };
    expect(state.findings.sizeLine).toBe(expected);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url);
    await expect.poll(() => page.locator('#size-line').textContent(), { timeout: SETTLE_MS }).toContain(expected);
    const requests: string[] = [];
    const [report] = await Promise.all([context.waitForEvent('page'), page.locator('#bundle-report-link').click()]);
    report.on('request', (request) => requests.push(request.url()));
    await report.locator('body[data-ready="true"]').waitFor({ timeout: SETTLE_MS });
    const shown = await report.evaluate(() => ({
      sizeLine: document.querySelector('.size-line')!.textContent,
      packages: Array.from(document.querySelectorAll<HTMLElement>('#packages tr[data-name]')).map((row) => row.dataset['name']),
      sources: Array.from(document.querySelectorAll<HTMLElement>('#sources tr[data-name]')).map((row) => row.dataset['name']),
    }));
    await context.close();
    expect(shown.sizeLine).toBe(expected);
    expect(shown.packages).toContain('react-dom');
    expect(shown.sources).toContain('src/App.tsx');
    expect(requests).toEqual([]);
  });
});
