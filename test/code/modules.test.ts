import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';

/*
 * The bridge passed between a bundle's ES modules: exported from one file (directly, through an
 * export list, as the default, or re-exported), imported in another. Files are read in bundle
 * order, so each case runs with the exporting module before and after the importing one, in a
 * folder and in a zip.
 */

const PAGE = '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script type="module" src="main.js"></script></body></html>';

async function findings(files: Record<string, string>, zip = false, manifest: object = goodManifest): Promise<string[]> {
  const all: Record<string, string | Buffer> = { ...goodFiles(manifest), 'index.html': PAGE, ...files };
  delete all['app.js'];
  const bundle = zip ? writeZip(Object.entries(all).map(([name, data]) => ({ name, data }))) : writeFolder(all);
  const report = await validateBundle(bundle);
  return report.problems.map((p) => `${p.ruleId} ${p.file ?? ''}:${p.line ?? ''}:${p.column ?? ''}`);
}

/** The same bundle with the bridge's module named to be read first (`a-…`) and last (`z-…`). */
const ORDERS = [
  ['before', 'a-bridge.js'],
  ['after', 'z-bridge.js'],
] as const;
const KINDS = [false, true] as const;
const CASES = ORDERS.flatMap(([order, name]) => KINDS.map((zip) => [order, name, zip] as const));

describe('the bridge exported by one module and imported by another', () => {
  const exporters: Record<string, [exporter: string, importer: (file: string) => string]> = {
    'export const pipeline = window.pipeline': ['export const pipeline = window.pipeline;\n', (f) => `import { pipeline } from './${f}';\n`],
    'export const sdk = window.pipeline, imported renamed': ['export const sdk = window.pipeline;\n', (f) => `import { sdk as pipeline } from './${f}';\n`],
    'an export list': ['const bridge = window.pipeline;\nexport { bridge as pipeline };\n', (f) => `import { pipeline } from './${f}';\n`],
    'an export list before the declaration': ['export { bridge as pipeline };\nconst bridge = window.pipeline;\n', (f) => `import { pipeline } from './${f}';\n`],
    'the global under its own name': ['const pipeline = window.pipeline;\nexport { pipeline };\n', (f) => `import { pipeline } from './${f}';\n`],
    'a default export': ['export default window.pipeline;\n', (f) => `import pipeline from './${f}';\n`],
    'a default export of a variable': ['const sdk = globalThis.pipeline;\nexport default sdk;\n', (f) => `import pipeline, { other } from './${f}';\n`],
  };

  it.each(Object.entries(exporters).flatMap(([name, pair]) => CASES.map((c) => [name, ...c, pair] as const)))(
    '%s (read %s the importer, as %s, zip: %s)',
    async (_name, _order, file, zip, [exporter, importer]) => {
      const main = `${importer(file)}pipeline.quotes.addLine([]);\n`;
      expect(await findings({ [file]: exporter, 'main.js': main }, zip)).toEqual(['bridge-unknown-method main.js:2:1']);
    },
  );

  it.each(CASES)('through a module that re-exports it (read %s the importer, as %s, zip: %s)', async (_order, file, zip) => {
    const files = {
      [file]: 'export const pipeline = window.pipeline;\n',
      'm-sdk.js': `export { pipeline } from './${file}';\nexport * from './${file}';\nexport { pipeline as bridge } from './${file}';\n`,
      'main.js': "import { pipeline, bridge } from './m-sdk.js';\nimport * as all from './m-sdk.js';\npipeline.quotes.addLine([]);\nbridge.quotes.update();\n",
    };
    expect(await findings(files, zip)).toEqual(['bridge-unknown-method main.js:3:1', 'bridge-unknown-method main.js:4:1']);
  });

  it.each(CASES)('through `export *` alone (read %s the importer, as %s, zip: %s)', async (_order, file, zip) => {
    const files = {
      [file]: 'export const sdk = window.pipeline;\n',
      'm-index.js': `export * from './${file}';\n`,
      'main.js': "import { sdk } from './m-index.js';\nsdk.quotes.addLine([]);\n",
    };
    expect(await findings(files, zip)).toEqual(['bridge-unknown-method main.js:2:1']);
  });

  it.each(CASES)('a namespace exported as such (read %s the importer, as %s, zip: %s)', async (_order, file, zip) => {
    const files = { [file]: 'export const quotes = window.pipeline.quotes;\n', 'main.js': `import { quotes } from './${file}';\nquotes.addLine([]);\n` };
    expect(await findings(files, zip)).toEqual(['bridge-unknown-method main.js:2:1']);
  });

  it.each(CASES)('every bridge rule, and the literals of the call (read %s the importer, as %s, zip: %s)', async (_order, file, zip) => {
    const files = {
      [file]: 'export const pipeline = window.pipeline;\n',
      'main.js': `import { pipeline } from './${file}';\npipeline.costItems.list();\npipeline.quotes.addLines([{ qty: 0, unitPrice: 1, taxRate: 0 }]);\n`,
    };
    expect(await findings(files, zip, { ...goodManifest, type: 'standalone' })).toEqual([
      'bridge-deprecated main.js:2:1',
      'bridge-tool-type main.js:3:1',
      'bridge-literal-range main.js:3:29',
    ]);
  });

  it('in an inline module of the page', async () => {
    const page = `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>\n<script type="module">import { pipeline } from './z-bridge.js'; pipeline.quotes.addLine([]);</script></body></html>`;
    expect(await findings({ 'index.html': page, 'z-bridge.js': 'export const pipeline = window.pipeline;\n', 'main.js': '' })).toEqual(['bridge-unknown-method index.html:2:65']);
  });
});

describe('names imported from modules that are not the bridge', () => {
  it.each(CASES)('are the modules\' own (read %s the importer, as %s, zip: %s)', async (_order, file, zip) => {
    const files = {
      [file]: 'export const pipeline = createPipeline();\nexport const quotes = { addLine() {} };\nexport default {};\nexport function sdk() {}\n',
      'main.js': `import sdk, { pipeline, quotes } from './${file}';\nimport { missing } from './${file}';\npipeline.quotes.addLine([]);\nquotes.addLine([]);\nsdk.quotes.addLine();\nmissing.quotes.addLine();\n`,
    };
    expect(await findings(files, zip)).toEqual([]);
  });

  it('re-exports that go round in a circle end', async () => {
    const files = { 'a.js': "export * from './b.js';\n", 'b.js': "export * from './a.js';\nexport { x as y } from './a.js';\n", 'main.js': "import { pipeline, y } from './a.js';\npipeline.quotes.addLine([]);\n" };
    expect(await findings(files)).toEqual([]);
  });

  it('a module outside the bundle, or a bare name, is not followed', async () => {
    const files = { 'main.js': "import { pipeline } from 'sdk';\nimport { sdk } from './gone.js';\npipeline.quotes.addLine([]);\nsdk.quotes.addLine([]);\n" };
    expect(await findings(files)).toEqual(['reference-missing main.js:2:22']);
  });
});

describe('an import path without its extension', () => {
  it('says that browsers do not add one, and names the file that exists', async () => {
    const files = {
      'utils/util.js': 'export const x = 1;\n',
      'widgets/index.js': 'export const y = 1;\n',
      'main.js': "import { x } from './utils/util';\nimport { y } from './widgets/';\nimport { z } from './widgets';\nimport './nothing';\n",
    };
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'index.html': PAGE, ...files }));
    const data = report.problems.map((p) => p.data);
    expect(data).toEqual([
      { reference: './utils/util', resolved: 'utils/util', existing: 'utils/util.js', written: './utils/util.js' },
      { reference: './widgets/', resolved: 'widgets/index.html', existing: 'widgets/index.js', written: './widgets/index.js' },
      { reference: './widgets', resolved: 'widgets', existing: 'widgets/index.js', written: './widgets/index.js' },
      { reference: './nothing', resolved: 'nothing' },
    ]);
    expect(report.problems[0]!.message).toBe(
      '"./utils/util" refers to utils/util, which is not in the bundle: browsers do not add an extension to a path, as bundlers and Node do. The bundle has utils/util.js: write "./utils/util.js".',
    );
  });

  it('for a stylesheet too', async () => {
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'styles.css': '@import "theme";\n', 'theme.css': 'a {}\n' }));
    expect(report.problems.map((p) => p.data)).toEqual([{ reference: 'theme', resolved: 'theme', existing: 'theme.css', written: 'theme.css' }]);
  });
});
