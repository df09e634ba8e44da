import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBundle, openBundleToCheck } from '../../src/core/bundle/open-bundle.js';
import { packFolder } from '../../src/core/pack/pack-folder.js';
import { apportion, originOf, reportBundle, type BundleReport } from '../../src/core/report/bundle-report.js';
import { bundleLimits, sizeLine } from '../../src/core/report/limits.js';
import type { BundleSource } from '../../src/core/shipment/source.js';
import { validateBundle } from '../../src/core/validate.js';
import { buildApp } from '../helpers/built-app.js';
import { goodFiles, tempDir, writeFolder } from '../helpers/bundles.js';

/** A small npm package the app imports, so its bytes come from node_modules/ through the map. */
const LIBRARY = {
  'node_modules/tiny-lib/package.json': JSON.stringify({ name: 'tiny-lib', version: '1.0.0', main: 'index.js' }),
  'node_modules/tiny-lib/index.js': `export function shout(text) { return String(text).toUpperCase() + ${JSON.stringify('!'.repeat(300))}; }\n`,
  'node_modules/@scope/thing/package.json': JSON.stringify({ name: '@scope/thing', version: '1.0.0', main: 'index.js' }),
  'node_modules/@scope/thing/index.js': 'export const thing = [1, 2, 3].map((n) => n * 2).join("-");\n',
  'src/main.tsx': "import { App } from './App';\nimport { shout } from 'tiny-lib';\nimport { thing } from '@scope/thing';\n\ndocument.body.append(App(), shout(thing));\n",
};

async function report(folder: string, root: string): Promise<BundleReport> {
  const source = await openBundle(folder);
  try {
    return await reportBundle(source, { sourceMaps: { root } });
  } finally {
    await source.close();
  }
}

const sum = (items: readonly { raw: number; zipped: number }[]) => ({ raw: items.reduce((a, b) => a + b.raw, 0), zipped: items.reduce((a, b) => a + b.zipped, 0) });

describe('reportBundle', () => {
  it('gives a folder the sizes pack gives its zip: each file, the zip, the limits', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const got = await report(app.dist, app.project);
    const packed = await packFolder(app.dist, { out: path.join(tempDir(), 'tool.zip') });
    expect(packed.written).toBe(true);
    expect(got.limits).toEqual(bundleLimits(packed));
    expect(got.limits.zipBytes.used).toBe(statSync(packed.outputPath).size);
    expect(got.files.map(({ path: file, raw, zipped }) => ({ path: file, size: raw, compressedSize: zipped }))).toEqual(
      packed.included.map(({ path: file, size, compressedSize }) => ({ path: file, size, compressedSize })),
    );
    expect(sum(got.files).zipped + got.zipOverhead!).toBe(packed.zipSize);

    // The zip pack wrote, read with the folder's maps, says the same.
    const zip = await openBundle(packed.outputPath);
    const fromZip = await reportBundle(zip, { sourceMaps: { root: app.project, folder: app.dist } });
    await zip.close();
    expect({ ...fromZip, bundle: got.bundle, kind: got.kind }).toEqual(got);
  });

  it('shares a mapped file out among npm packages and the author’s sources, to the byte', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const got = await report(app.dist, app.project);
    expect(got.sourceRoot).toBe(app.project);
    const bundle = got.files.find((file) => file.path === 'assets/index.js')!;
    expect(bundle.mapped).toBe(true);
    expect(got.files.filter((file) => file.mapped)).toEqual([bundle]);
    expect(got.packages.map((item) => item.name).sort()).toEqual(['@scope/thing', 'tiny-lib']);
    expect(got.sources.map((item) => item.name).sort()).toEqual(['src/App.tsx', 'src/greet.ts', 'src/main.tsx']);
    // tiny-lib's long string makes it the largest contributor.
    expect(got.packages[0]!.name).toBe('tiny-lib');
    expect(got.packages[0]!.raw).toBeGreaterThan(300);
    const parts = sum([...got.packages, ...got.sources, got.unmapped]);
    expect(parts).toEqual({ raw: bundle.raw, zipped: bundle.zipped });
    for (const item of [...got.packages, ...got.sources]) expect(item.zipped, item.name).toBeGreaterThan(0);
  });

  it('gives the same figures when the folder’s zip is measured while the maps are read (openBundleToCheck)', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const measured = await report(app.dist, app.project);
    const source = await openBundleToCheck(app.dist);
    try {
      const alongside = await reportBundle(source, { sourceMaps: { root: app.project } });
      expect(alongside).toEqual(measured);
      expect(alongside.files.every((file) => file.zipped > 0)).toBe(true);
    } finally {
      await source.close();
    }
  });

  it('takes the zipped sizes only once the source says they are known (its `sized`)', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const source = await openBundle(app.dist);
    try {
      const measured = await reportBundle(source, { sourceMaps: { root: app.project } });
      // The same folder with its sizes held back: they are filled in when the report waits for them.
      const entries = source.entries.map((entry) => ({ ...entry, compressedSize: undefined as number | undefined }));
      const late: BundleSource = {
        ...source,
        entries,
        read: (entry, limit, sink) => source.read(source.entries[entries.indexOf(entry as (typeof entries)[number])]!, limit, sink),
        archiveSize: undefined,
        sized: {
          then(resolve: () => void) {
            entries.forEach((entry, i) => (entry.compressedSize = source.entries[i]!.compressedSize));
            Object.assign(late, { archiveSize: source.archiveSize });
            resolve();
          },
        } as Promise<void>,
      };
      expect(await reportBundle(late, { sourceMaps: { root: app.project } })).toEqual(measured);
    } finally {
      await source.close();
    }
  });

  it('stops at an abort (Ctrl-C during pack --report), with the signal’s reason', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const source = await openBundle(app.dist);
    try {
      const reason = new Error('interrupted');
      await expect(reportBundle(source, { sourceMaps: { root: app.project }, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    } finally {
      await source.close();
    }
  });

  it('reads an inline map as well, and without maps lists the files alone', async () => {
    const inline = buildApp(LIBRARY, { map: 'inline' });
    expect((await report(inline.dist, inline.project)).packages.map((item) => item.name)).toContain('tiny-lib');
    const none = buildApp(LIBRARY, { map: 'none' });
    const got = await report(none.dist, none.project);
    expect(got).toMatchObject({ packages: [], sources: [], unmapped: { raw: 0, zipped: 0 }, sourceRoot: null });
    expect(got.files.map((file) => file.path)).toContain('assets/index.js');
  });

  it('lists the problems with their places', async () => {
    const app = buildApp(LIBRARY, { map: 'hidden' });
    const source = await openBundle(app.dist);
    const problems = (await validateBundle(source, { sourceMaps: { root: app.project } })).problems;
    const got = await reportBundle(source, { sourceMaps: { root: app.project }, problems });
    await source.close();
    // App.tsx uses localStorage: a warning placed at the source, with its place in the build.
    expect(got.findings).toContainEqual(expect.objectContaining({ ruleId: 'browser-storage', file: 'src/App.tsx', line: 10, built: expect.objectContaining({ file: 'assets/index.js' }) }));
  });

  it('a zip on its own: its files and sizes, no sources', async () => {
    const folder = writeFolder(goodFiles());
    const packed = await packFolder(folder, { out: path.join(tempDir(), 'tool.zip') });
    const zip = await openBundle(packed.outputPath);
    const got = await reportBundle(zip);
    await zip.close();
    expect(got.kind).toBe('zip');
    expect(got.limits.zipBytes.used).toBe(packed.zipSize);
    expect(got.limits.files.used).toBe(4);
    expect(got.files.map((file) => file.zipped)).toEqual(packed.included.map((file) => file.compressedSize));
  });
});

describe('where bytes come from', () => {
  it.each([
    ['file:///p/node_modules/react-dom/cjs/react-dom.production.js', { kind: 'package', name: 'react-dom' }],
    ['file:///p/node_modules/@vue/runtime-core/dist/x.js', { kind: 'package', name: '@vue/runtime-core' }],
    ['file:///p/node_modules/.pnpm/react@19/node_modules/react/index.js', { kind: 'package', name: 'react' }],
    ['file:///elsewhere/node_modules/vue/dist/vue.js', { kind: 'package', name: 'vue' }],
    ['file:///p/src/App.tsx', { kind: 'source', name: 'src/App.tsx' }],
    ['file:///p/src/my_node_modules/x.ts', { kind: 'source', name: 'src/my_node_modules/x.ts' }],
    ['file:///other/lib.ts', { kind: 'source', name: '../other/lib.ts' }],
    [null, null],
  ] as const)('%s', (source, expected) => {
    expect(originOf(source, '/p')).toEqual(expected);
  });

  it('shares whole bytes in proportion, adding up exactly', () => {
    expect(apportion([1, 1, 1], 10)).toEqual([4, 3, 3]);
    expect(apportion([3, 1], 8)).toEqual([6, 2]);
    expect(apportion([0, 0], 5)).toEqual([0, 0]);
    expect(apportion([5, 0, 2], 0)).toEqual([0, 0, 0]);
    const shares = apportion([17, 3, 250, 1], 977);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(977);
  });
});

describe('the size line', () => {
  it('puts each figure against its limit', () => {
    expect(sizeLine(bundleLimits({ files: 5, zipSize: 61_234, unpackedSize: 201_000 }))).toBe(
      '61,234 bytes zipped of 10,000,000 (0.6%) · 201,000 unpacked of 50,000,000 (0.4%) · 5 files of 200 (2.5%)',
    );
    expect(sizeLine(bundleLimits({ files: 1, zipSize: 900, unpackedSize: 1000 }))).toContain('900 bytes zipped of 10,000,000 (<0.1%)');
    expect(sizeLine(bundleLimits({ files: 201, unpackedSize: 60_000_000 }))).toBe(
      'bytes zipped not measured (limit 10,000,000) · 60,000,000 unpacked of 50,000,000 (120.0%) · 201 files of 200 (100.5%)',
    );
  });
});
