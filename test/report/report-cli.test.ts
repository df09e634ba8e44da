import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { defaultReportPath } from '../../src/cli/report-page.js';
import { escapeHtml, jsonForScript, renderReportPage } from '../../src/report-page/render.js';
import type { BundleReport } from '../../src/core/report/bundle-report.js';
import { bundleLimits } from '../../src/core/report/limits.js';
import { goodFiles, tempDir, writeFolder } from '../helpers/bundles.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';

/* `--report` on the command line: where the page goes, what is printed, the JSON numbers, bad input. */

describe('where --report writes the page', () => {
  it('beside a zip, as <name>.report.html; beside a folder, never inside it', () => {
    expect(defaultReportPath('/w/release/tool-1.0.0.zip')).toBe('/w/release/tool-1.0.0.report.html');
    expect(defaultReportPath('/w/release/TOOL.ZIP')).toBe('/w/release/TOOL.report.html');
    expect(defaultReportPath('/w/dist')).toBe('/w/dist.report.html');
    expect(defaultReportPath('/w/dist/')).toBe('/w/dist.report.html');
  });
});

/** Moves a folder into `root` under `name`, and returns its new path. */
function within(root: string, name: string, folder: string): string {
  const moved = path.join(root, name);
  renameSync(folder, moved);
  return moved;
}

describe('validate --report and pack --report', () => {
  it('validate of a folder writes the page beside it, prints its path, and ships nothing new', () => {
    const root = tempDir();
    // Inside the test's own folder, so that the page written beside it goes when that folder does.
    const made = within(root, 'tool', writeFolder(goodFiles()));
    const ran = runCli(['validate', made, '--report'], { cwd: root });
    expect(ran.code).toBe(EXIT.ok);
    const page = `${made}.report.html`;
    expect(existsSync(page)).toBe(true);
    expect(ran.stdout).toMatch(/^Bundle report: .*\.report\.html$/m);
    expect(readFileSync(page, 'utf8')).toMatch(/^<!doctype html>/);
    // The folder still validates as it did: the page is not in it.
    expect(runCli(['validate', made, '--format', 'json'], { cwd: root }).stdout).not.toContain('report.html');
  });

  it('pack --report --format json: the page beside the zip, and the same numbers per file in sizes', () => {
    const root = tempDir();
    const folder = writeFolder(goodFiles());
    const ran = runCli(['pack', folder, '-o', `${root}/`, '--report', '--format', 'json'], { cwd: root });
    expect(ran.code).toBe(EXIT.ok);
    const result = JSON.parse(ran.stdout) as {
      output: string;
      limits: unknown;
      included: { path: string; size: number; compressedSize: number }[];
      sizes: { page: string; limits: unknown; files: { path: string; raw: number; zipped: number }[]; zipOverhead: number; packages: unknown[]; sources: unknown[] };
    };
    expect(result.sizes.page).toBe(result.output.replace(/\.zip$/, '.report.html'));
    expect(existsSync(path.resolve(root, result.sizes.page))).toBe(true);
    expect(result.sizes.limits).toEqual(result.limits);
    expect(result.sizes.files.map((file) => [file.path, file.raw, file.zipped])).toEqual(result.included.map((file) => [file.path, file.size, file.compressedSize]));
    const zipped = result.sizes.files.reduce((sum, file) => sum + file.zipped, 0);
    expect(zipped + result.sizes.zipOverhead).toBe(statSync(path.resolve(root, result.output)).size);
    expect(result.sizes).toMatchObject({ packages: [], sources: [] });
  });

  it('validate --report --format json of a zip: sizes beside the problems, the page beside the zip', () => {
    const root = tempDir();
    const folder = writeFolder(goodFiles());
    expect(runCli(['pack', folder, '-o', path.join(root, 'tool.zip')], { cwd: root }).code).toBe(EXIT.ok);
    const ran = runCli(['validate', 'tool.zip', '--report', '--format', 'json'], { cwd: root });
    expect(ran.code).toBe(EXIT.ok);
    const document = JSON.parse(ran.stdout) as { kind: string; problems: unknown[]; sizes: { page: string; limits: { files: { used: number } } } };
    expect(document.kind).toBe('zip');
    expect(document.sizes.page).toBe('tool.report.html');
    expect(document.sizes.limits.files.used).toBe(4);
    expect(existsSync(path.join(root, 'tool.report.html'))).toBe(true);
  });

  it('several bundles: a page beside each, and each bundle\'s sizes in the JSON; --quiet prints no path', () => {
    const root = tempDir();
    const one = within(root, 'one', writeFolder(goodFiles()));
    const two = within(root, 'two', writeFolder({ ...goodFiles(), 'more.js': 'document.title = "more";\n' }));
    const ran = runCli(['validate', one, two, '--report', '--format', 'json'], { cwd: root });
    expect(ran.code).toBe(EXIT.ok);
    const document = JSON.parse(ran.stdout) as { bundles: { sizes: { page: string; limits: { files: { used: number } } } }[] };
    expect(document.bundles.map((bundle) => bundle.sizes.limits.files.used)).toEqual([4, 5]);
    for (const folder of [one, two]) expect(existsSync(`${folder}.report.html`)).toBe(true);

    const quiet = runCli(['pack', one, '-o', `${root}/`, '--report', '--quiet'], { cwd: root });
    expect(quiet).toMatchObject({ code: EXIT.ok, stdout: '' });
    expect(existsSync(path.join(root, 'kitchen-1.2.0.report.html'))).toBe(true);
  });

  it('a page is written for a bundle that fails too, and for a dry run', () => {
    const root = tempDir();
    const folder = writeFolder({ ...goodFiles(), 'app.js': 'alert("x");\n' });
    const ran = runCli(['pack', folder, '-o', `${root}/`, '--report', '--dry-run'], { cwd: root });
    expect(ran.stdout).toMatch(/^Bundle report: kitchen-1\.2\.0\.report\.html$/m);
    const page = readFileSync(path.join(root, 'kitchen-1.2.0.report.html'), 'utf8');
    expect(page).toContain('dialog-call');
  });

  it('refuses a page name that is not .html, and one name for several bundles, in one line each', () => {
    const root = tempDir();
    const folder = writeFolder(goodFiles());
    const notHtml = runCli(['validate', folder, '--report', 'report.txt'], { cwd: root });
    expect(notHtml.code).toBe(EXIT.failure);
    expect(notHtml.stderr).toContain('--report writes an HTML page: give a file name ending in .html, not "report.txt".');
    const several = runCli(['validate', folder, writeFolder(goodFiles()), '--report', 'one.html'], { cwd: root });
    expect(several.code).toBe(EXIT.failure);
    expect(several.stderr).toContain('names one page, and 2 bundles are checked');
    const unwritable = runCli(['validate', folder, '--report', path.join(folder, 'manifest.json', 'x.html')], { cwd: root });
    expect(unwritable.code).toBe(EXIT.failure);
    expect(unwritable.stderr).toContain('cannot write the report to');
    for (const ran of [notHtml, several, unwritable]) expect(ran.stderr).not.toMatch(STACK_TRACE);
  });
});

describe('the page as text', () => {
  const report: BundleReport = {
    bundle: '<b>tool</b>',
    kind: 'folder',
    sourceRoot: null,
    limits: bundleLimits({ files: 1, zipSize: 120, unpackedSize: 100 }),
    zipOverhead: 20,
    files: [{ path: '</script><script>alert(1)</script>.js', raw: 100, zipped: 100, mapped: false }],
    packages: [],
    sources: [],
    unmapped: { raw: 0, zipped: 0 },
    findings: [],
  };

  it('escapes the title, carries the report as JSON no name can close, and allows only its own script and style', () => {
    const html = renderReportPage(report);
    expect(html).toContain('<h1>Bundle report: <span class="bundle">&lt;b&gt;tool&lt;/b&gt;</span></h1>');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<script>alert');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[\w+/=]+'; style-src 'sha256-[\w+/=]+';/);
    // The hashes (made when pipeline-tool is built) are those of the page's own script and style.
    const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(policy).toContain(`script-src '${sha256(script)}'; style-src '${sha256(style)}';`);
    // No address anywhere but SVG's namespace name, which is never fetched.
    expect(html).not.toMatch(/<(?:link|img|iframe)\b|\bsrc=|https?:\/\/(?!www\.w3\.org\/2000\/svg")/i);
  });

  it('escapes what HTML and a script element could take for markup', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const json = jsonForScript({ name: '</script><!-- \u2028 &' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ name: '</script><!-- \u2028 &' });
  });
});
