import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatNames, loadFormatter } from '../../src/cli/formatters/index.js';
import type { Report } from '../../src/core/problem.js';
import type * as CodeThreads from '../../src/core/code/code-threads.js';
import type * as Library from '../../src/index.js';
import { runScriptJob, type JobBundle } from '../../src/core/code/js-scanner.js';
import type { ModuleExports } from '../../src/core/code/module-links.js';
import { bundleIndex } from '../../src/core/code/references.js';
import type { BundleEntry } from '../../src/core/shipment/source.js';
import { runCli } from '../helpers/cli.js';
import { goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';
import { codeRuleCases, type Variant } from './rule-cases.js';
import { generateChunkJs } from '../../bench/minified-js.mjs';
import { createRandom } from '../../bench/random.mjs';

/*
 * The code checks of a large bundle shared over worker threads (src/core/code/code-threads.ts) must
 * give what one thread gives, byte for byte, in every output format. The built library checks each
 * bundle with the threads forced on (PIPELINE_TOOL_CODE_THREADS="<workers>,0": no size threshold,
 * one worker and two) and off, and the reports and what every formatter prints of them are held
 * against each other: on the code-check cases of every rule (rule-cases.ts), on modules passing
 * the bridge to each other, and on a smaller copy of the benchmark's bundle of minified modules.
 * The built CLI, spawned, shows the setting and its output reach the user's side as well.
 */

/** Every variant of every rule case, each in a folder of its own, in bundles by tool type. */
function ruleCaseBundles(): Record<string, Record<string, string | Buffer>> {
  const byType = new Map<string, Record<string, string | Buffer>>();
  let n = 0;
  const add = (variant: Variant) => {
    const type = variant.type ?? goodManifest.type;
    let files = byType.get(type);
    if (!files) {
      files = goodFiles({ ...goodManifest, type });
      byType.set(type, files);
    }
    const folder = `case-${String(n++).padStart(4, '0')}`;
    for (const [name, text] of Object.entries({ ...goodFiles(), ...variant.files })) if (name !== 'manifest.json') files[`${folder}/${name}`] = text;
  };
  for (const ruleCase of Object.values(codeRuleCases)) {
    add(ruleCase.bad);
    add(ruleCase.good);
    for (const variant of Object.values(ruleCase.alsoBad ?? {})) add(variant);
    for (const variant of Object.values(ruleCase.falsePositives)) add(variant);
  }
  return Object.fromEntries([...byType].map(([type, files]) => [`rule cases (${type})`, files]));
}

const PAGE = '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script type="module" src="main.js"></script></body></html>';

/** The bridge exported by one module and imported by others, the exporter read before and after them. */
function moduleBundle(): Record<string, string | Buffer> {
  const files = goodFiles();
  for (const bridge of ['a-bridge.js', 'z-bridge.js']) {
    const folder = bridge.slice(0, 1);
    files[`${folder}/index.html`] = PAGE;
    files[`${folder}/${bridge}`] = 'export const pipeline = window.pipeline;\nexport default window.pipeline;\n';
    files[`${folder}/m-sdk.js`] = `export { pipeline } from './${bridge}';\nexport * from './${bridge}';\nexport { pipeline as bridge } from './${bridge}';\n`;
    files[`${folder}/main.js`] = "import { pipeline, bridge } from './m-sdk.js';\nimport * as all from './m-sdk.js';\npipeline.quotes.addLine([]);\nbridge.quotes.update();\nalert(all);\n";
    files[`${folder}/other.js`] = `import sdk from './${bridge}';\nimport { pipeline as p } from './m-sdk.js';\nsdk.quotes.addLines([{ qty: '1' }]);\np.storage.get();\n// pipeline-tool-disable-next-line bridge-unknown-method\np.quotes.nothing();\nlocalStorage.setItem('a', 1);\n`;
  }
  return files;
}

const chunkJs = generateChunkJs as unknown as (random: unknown, bytes: number, options: { banner: string; importsFrom: string[] }) => { text: string };

/** The benchmark's bundle of minified modules (bench/inputs.mjs), smaller, with findings in some chunks. */
function chunkBundle(): Record<string, string | Buffer> {
  const random = createRandom(0x5eed2024);
  const count = 40;
  const name = (i: number) => `chunk-${String(i).padStart(3, '0')}.js`;
  const files: Record<string, string | Buffer> = { ...goodFiles(), 'index.html': `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>${[0, 1, 2].map((i) => `<script type="module" src="assets/${name(i)}"></script>`).join('')}</body></html>` };
  delete files['app.js'];
  for (let i = 0; i < count; i++) {
    const r = random.fork(name(i));
    const importsFrom = [name((i + 1 + r.int(count - 1)) % count), name((i + count - 1) % count)];
    let { text } = chunkJs(r, 20_000 + r.int(30_000), { banner: name(i), importsFrom });
    if (i % 7 === 3) text = `import{pipeline as B}from"./bridge-${i % 2}.js";B.quotes.addLine([]);localStorage.getItem("k");\n${text}`;
    if (i % 11 === 5) text = `/* pipeline-tool-disable-next-line browser-storage */\nsessionStorage.clear();alert(1);\n${text}`;
    files[`assets/${name(i)}`] = text;
  }
  // One bridge module read first, one last; a vendored library with a licence banner.
  files['assets/bridge-0.js'] = 'export const pipeline = window.pipeline;\n';
  files['assets/zz/bridge-1.js'] = 'export const pipeline = window.pipeline;\n';
  files['assets/bridge-1.js'] = "export { pipeline } from './zz/bridge-1.js';\n";
  files['assets/vendor/lib.js'] = '/*! lib v1 | MIT */\nlocalStorage.setItem("x", 1);document.write("<p>");\n';
  return files;
}

/*
 * The built library (dist/), in this process: from there the code checks find the worker's file
 * (dist/cli/code-worker.cjs), which the TypeScript sources do not have. The setting is read at each
 * validation, so one process can check a bundle on one thread and on several.
 */
const library = async () => (await import('../../dist/index.js' as string)) as typeof Library;
const threadCounts = async () => ((await import('../../dist/core/code/code-threads.js' as string)) as typeof CodeThreads).codeThreadCounts();

async function validateWith(bundle: string, threads: string): Promise<{ report: Report; workers: number; frames: number }> {
  const before = await threadCounts();
  const saved = process.env['PIPELINE_TOOL_CODE_THREADS'];
  process.env['PIPELINE_TOOL_CODE_THREADS'] = threads;
  try {
    const report = await (await library()).validateBundle(bundle, { sourceMaps: { root: path.dirname(bundle) } });
    const after = await threadCounts();
    return { report, workers: after.workers - before.workers, frames: after.frames - before.frames };
  } finally {
    if (saved === undefined) delete process.env['PIPELINE_TOOL_CODE_THREADS'];
    else process.env['PIPELINE_TOOL_CODE_THREADS'] = saved;
  }
}

describe('the code checks on several threads give one thread’s output', () => {
  const bundles: Array<[string, () => string]> = [
    ...Object.entries(ruleCaseBundles()).map(([label, files]): [string, () => string] => [label, () => writeFolder(files)]),
    ['modules passing the bridge (folder)', () => writeFolder(moduleBundle())],
    ['modules passing the bridge (zip)', () => writeZip(Object.entries(moduleBundle()).map(([name, data]) => ({ name, data })))],
    ['minified module chunks (zip)', () => writeZip(Object.entries(chunkBundle()).map(([name, data]) => ({ name, data })))],
  ];

  it.each(bundles)('%s, in every format', async (_label, make) => {
    const bundle = make();
    const one = await validateWith(bundle, '0,0');
    expect(one.workers).toBe(0);
    const options = { colour: false, quiet: false, verbose: false, cwd: path.dirname(bundle), workspace: undefined };
    for (const threads of ['1,0', '2,0']) {
      const several = await validateWith(bundle, threads);
      // The threads did take jobs: otherwise this compares one thread with itself.
      expect(several.workers).toBeGreaterThan(0);
      // Jobs' bytes go through frames of memory shared with the workers, each reused once its job
      // is answered: a job that left anything reading its frame behind would change later results.
      expect(several.frames).toBeGreaterThan(0);
      expect(several.frames).toBeLessThanOrEqual(several.workers);
      expect(several.report).toEqual(one.report);
      for (const format of formatNames) {
        const formatter = (await loadFormatter(format, { colour: false }))!;
        expect(formatter(several.report, options), `${format}, ${threads}`).toBe(formatter(one.report, options));
      }
    }
  }, 600_000);

  // The built CLI, spawned: the setting reaches the checks through it, and so does what they did.
  it('through the CLI: a bundle over the threshold shares its scripts and prints what one thread prints; one under it starts no worker', () => {
    const chunks = writeZip(Object.entries(chunkBundle()).map(([name, data]) => ({ name, data })));
    const run = (bundle: string, threads: string) => runCli(['validate', '--format', 'json', bundle], { env: { PIPELINE_TOOL_CODE_THREADS: threads } });
    const one = run(chunks, '0,0');
    expect(one.stderr).toMatch(/code threads: 0 jobs in workers/);
    const several = run(chunks, '2,0');
    const [, given, frames] = /code threads: (\d+) jobs in workers, .*, (\d+) frames/.exec(several.stderr) ?? [];
    expect(Number(given)).toBeGreaterThan(0);
    // Frames were reused, and what was read from them came out as on one thread.
    expect(Number(frames)).toBeLessThan(Number(given));
    expect(several.stdout).toBe(one.stdout);
    expect(several.code).toBe(one.code);
    expect(run(writeFolder(moduleBundle()), '2').stderr).toMatch(/code threads: 0 jobs in workers, 0 here/);
  }, 120_000);
});

describe('a job records the module files it looked up in vain', () => {
  const files = ['bridge.js', 'main.js'].map((path) => ({ path }) as BundleEntry);
  const bundle: JobBundle = { toolType: 'quoting_extension', declared: true, index: bundleIndex(files), hasJquery: false, scriptBytes: 0 };
  const main = { file: 'main.js', chunks: [Buffer.from("import { pipeline } from './bridge.js';\npipeline.quotes.addLine([]);\n")] };

  it('and what the file exports, apart from what it was given', () => {
    const exporter = runScriptJob({ file: 'bridge.js', chunks: [Buffer.from('export const pipeline = window.pipeline;\n')] }, bundle, new Map());
    expect(exporter.missed).toEqual([]);
    expect(exporter.exports?.names.get('pipeline')).toEqual({ texts: ['pipeline'] });

    const before = runScriptJob(main, bundle, new Map());
    expect(before.missed).toEqual(['bridge.js']);
    // Not known yet: the finding waits on the module.
    expect(before.findings).toEqual([]);
    expect(before.conditional.map((c) => [c.finding.ruleId, c.module, c.name])).toEqual([['bridge-unknown-method', 'bridge.js', 'pipeline']]);

    const after = runScriptJob(main, bundle, new Map<string, ModuleExports>([['bridge.js', exporter.exports!]]));
    expect(after.missed).toEqual([]);
    expect(after.findings.map((f) => `${f.ruleId} ${f.line}:${f.column}`)).toEqual(['bridge-unknown-method 2:1']);
  });

  it('and how it says other scripts are loaded', () => {
    const result = runScriptJob(main, bundle, new Map());
    expect(result.modes).toEqual([['bridge.js', 'module']]);
  });
});
