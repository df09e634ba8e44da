// The benchmark inputs, generated from a fixed seed into bench/.work/inputs and reused while
// GENERATOR_VERSION and the seed are unchanged:
//   typical/ + typical.zip   a tool of 25 files, about 300 KB
//   max/ + max.zip           200 files, about 49,000,000 bytes, zipping to about 9.5 MB; a third
//                            of it images, the rest minified JavaScript, CSS, SVG and JSON
//   maxjs/ + maxjs.zip       200 files, about 49,000,000 bytes, nearly all JavaScript (15%
//                            minified vendor code, the rest documented library code), as real
//                            tools are; zipping to about 9.5 MB
//   maxmin/ + maxmin.zip     200 files: 198 chunks of minified ES modules, about 41,000,000 bytes
//                            on two lines each, as a bundler writes them; zipping to about 9.5 MB
//   bomb.zip                 one entry that inflates to 200,000,000 zero bytes
//   fixtures-10k.json,       fixture files for `dev --fixtures` of 10,000 and 100,000 rows
//   fixtures-100k.json       (bench/fixture-file.mjs)
// The folders are zipped with Info-ZIP `zip -X -6`, not with our own `pack`, so that a bug in
// `pack` cannot make the inputs of `validate` easier or harder.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Script } from 'node:vm';
import { createRandom } from './random.mjs';
import { generateChunkJs, generateDocumentedJs, generateMinifiedJs } from './minified-js.mjs';
import {
  generateCss, generateDiagramPng, generateIndexHtml, generateJson, generateManifest,
  generatePhotoPng, generateSvg,
} from './assets.mjs';
import { writeZeroBomb } from './zip-writer.mjs';
import { writeFixtureFile } from './fixture-file.mjs';

/** Bump whenever a change to the generators changes the bytes they write; stale inputs are remade. */
export const GENERATOR_VERSION = 4;
export const DEFAULT_SEED = 0x5eed2024;

export const LIMITS = { zipBytes: 10_000_000, rawBytes: 50_000_000, files: 200 };
const MAX_RAW_TARGET = 49_000_000;
const MAX_JS_TOTAL = 32_000_000;
const MINIFIED_CHUNKS_TOTAL = 41_000_000;
const BOMB_BYTES = 200_000_000;
const FIXTURE_ROWS = { small: 10_000, large: 100_000 };

// Every file gets this modification time, and zip runs with TZ=UTC, so the zips are byte-identical
// from one machine to the next.
const FIXED_MTIME = new Date('2024-01-01T00:00:00Z');

// --- layouts: a list of files, each with a function that makes its content ---------------------
// `make(random, soFar)` receives a random stream forked for that path, and the bytes written so far,
// which the last files of `max` use to land on the raw-size target.

function typicalLayout() {
  const scripts = ['js/vendor.js', 'js/app.js'];
  const files = [
    { path: 'manifest.json', make: () => generateManifest('Bench Typical Tool', 'Bench Typical') },
    {
      path: 'index.html',
      make: () => generateIndexHtml('Bench Typical Tool', {
        styles: ['css/theme.css', 'css/app.css'],
        scripts,
        images: ['img/logo.png'],
      }),
    },
    { path: 'css/theme.css', make: (r) => generateCss(r, 6_000) },
    { path: 'css/app.css', make: (r) => generateCss(r, 18_000) },
    { path: 'js/vendor.js', make: (r) => generateMinifiedJs(r, 80_000, { banner: 'vendor' }) },
    { path: 'js/app.js', make: (r) => generateMinifiedJs(r, 110_000, { banner: 'app' }) },
  ];
  for (let i = 0; i < 5; i++) {
    files.push({ path: `js/chunk-${i}.js`, make: (r) => generateMinifiedJs(r, 6_000 + i * 1_500, { banner: `chunk-${i}` }) });
  }
  for (const icon of ['add', 'remove', 'edit', 'search', 'close', 'check', 'warning', 'settings']) {
    files.push({ path: `img/icons/${icon}.svg`, make: (r) => generateSvg(r, r.between(2, 6)) });
  }
  for (const [name, width, height] of [['logo', 48, 48], ['avatar', 40, 40], ['empty-state', 64, 40], ['banner', 80, 24]]) {
    files.push({ path: `img/${name}.png`, make: (r) => generatePhotoPng(r, width, height) });
  }
  files.push({ path: 'data/strings.json', make: (r) => generateJson(r, 5_000) });
  files.push({ path: 'data/defaults.json', make: (r) => generateJson(r, 2_000) });
  return files;
}

function maxLayout() {
  const jsCount = 120;
  const cssCount = 6;
  const svgCount = 30;
  const jsonCount = 2;
  const photoCount = 10;
  const diagramCount = LIMITS.files - 2 - jsCount - cssCount - svgCount - jsonCount - photoCount;

  const pad = (n) => String(n).padStart(3, '0');
  const jsPaths = Array.from({ length: jsCount }, (_, i) => (i < 10 ? `js/vendor-${pad(i)}.js` : `js/chunk-${pad(i)}.js`));
  const cssPaths = Array.from({ length: cssCount }, (_, i) => `css/style-${pad(i)}.css`);

  // Uneven file sizes, as a bundler makes them: a few large vendor chunks and many smaller ones,
  // scaled so the JavaScript adds up to MAX_JS_TOTAL.
  const weights = jsPaths.map((_, i) => (i < 10 ? 3 : 1) * (0.6 + ((i * 37) % 17) / 20));
  const weightSum = weights.reduce((a, b) => a + b, 0);

  const files = [
    { path: 'manifest.json', make: () => generateManifest('Bench Maximum Tool', 'Bench Max') },
    {
      path: 'index.html',
      make: () => generateIndexHtml('Bench Maximum Tool', {
        styles: cssPaths,
        scripts: jsPaths.slice(0, 12),
        images: ['img/icons/icon-000.svg', 'img/photos/photo-000.png'],
      }),
    },
  ];
  cssPaths.forEach((p) => files.push({ path: p, make: (r) => generateCss(r, 50_000) }));
  jsPaths.forEach((p, i) => {
    const bytes = Math.round((MAX_JS_TOTAL * weights[i]) / weightSum);
    files.push({ path: p, make: (r) => generateMinifiedJs(r, bytes, { banner: path.basename(p, '.js') }) });
  });
  for (let i = 0; i < svgCount; i++) {
    files.push({ path: `img/icons/icon-${pad(i)}.svg`, make: (r) => generateSvg(r, r.between(3, 12)) });
  }
  for (let i = 0; i < jsonCount; i++) {
    files.push({ path: `data/catalogue-${pad(i)}.json`, make: (r) => generateJson(r, 150_000) });
  }
  for (let i = 0; i < photoCount; i++) {
    files.push({ path: `img/photos/photo-${pad(i)}.png`, make: (r) => generatePhotoPng(r, r.between(140, 180), r.between(90, 110)) });
  }
  // The diagrams soak up what is left of the raw-size target, shared evenly between them.
  const diagramWidth = 640;
  for (let i = 0; i < diagramCount; i++) {
    files.push({
      path: `img/diagrams/diagram-${pad(i)}.png`,
      make: (r, soFar) => {
        const share = (MAX_RAW_TARGET - soFar) / (diagramCount - i);
        const height = Math.max(1, Math.floor((share - 200) / (1 + diagramWidth * 3)));
        return generateDiagramPng(r, diagramWidth, height);
      },
    });
  }
  return files;
}

/**
 * Nearly all JavaScript: 10 minified vendor files (15% of the bytes) and 185 documented
 * library files of uneven size, with the manifest, the entry page and three stylesheets.
 */
function maxJsLayout() {
  const pad = (n) => String(n).padStart(3, '0');
  const cssPaths = ['css/base.css', 'css/layout.css', 'css/print.css'];
  const vendorPaths = Array.from({ length: 10 }, (_, i) => `vendor/lib-${pad(i)}.min.js`);
  const libPaths = Array.from({ length: LIMITS.files - 2 - cssPaths.length - vendorPaths.length }, (_, i) => `js/module-${pad(i)}.js`);
  const cssBytes = 40_000;
  const jsBytes = MAX_RAW_TARGET - 20_000 - cssPaths.length * cssBytes;
  const vendorShare = 0.15;
  const libWeights = libPaths.map((_, i) => 0.5 + ((i * 53) % 19) / 12);
  const libWeightSum = libWeights.reduce((a, b) => a + b, 0);
  const files = [
    { path: 'manifest.json', make: () => generateManifest('Bench Script Tool', 'Bench Script') },
    { path: 'index.html', make: () => generateIndexHtml('Bench Script Tool', { styles: cssPaths, scripts: [...vendorPaths, ...libPaths.slice(0, 8)], images: [] }) },
  ];
  cssPaths.forEach((p) => files.push({ path: p, make: (r) => generateCss(r, cssBytes) }));
  vendorPaths.forEach((p) => {
    const bytes = Math.round((jsBytes * vendorShare) / vendorPaths.length);
    files.push({ path: p, make: (r) => generateMinifiedJs(r, bytes, { banner: path.basename(p, '.min.js') }) });
  });
  libPaths.forEach((p, i) => {
    const bytes = Math.round((jsBytes * (1 - vendorShare) * libWeights[i]) / libWeightSum);
    files.push({ path: p, make: (r) => generateDocumentedJs(r, bytes, { banner: path.basename(p, '.js') }) });
  });
  return files;
}

/**
 * A bundler's output at its largest: the manifest, the entry page and 198 chunks of minified ES
 * modules (about 207 KB each, uneven, 41 MB in all), each importing from one or two others. Their
 * lines are far too long for js-syntax to parse them (they are left to the minifier), so what
 * validate spends on them is reading and the code checks' tokenizer.
 */
function maxMinifiedLayout() {
  const pad = (n) => String(n).padStart(3, '0');
  const chunkPaths = Array.from({ length: LIMITS.files - 2 }, (_, i) => `assets/chunk-${pad(i)}.js`);
  const weights = chunkPaths.map((_, i) => 0.7 + ((i * 41) % 13) / 20);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const files = [
    { path: 'manifest.json', make: () => generateManifest('Bench Chunked Tool', 'Bench Chunks') },
    { path: 'index.html', make: () => generateIndexHtml('Bench Chunked Tool', { styles: [], scripts: [], modules: chunkPaths.slice(0, 4), images: [] }) },
  ];
  chunkPaths.forEach((p, i) => {
    const bytes = Math.round((MINIFIED_CHUNKS_TOTAL * weights[i]) / weightSum);
    files.push({
      path: p,
      make: (r) => {
        const others = [1 + r.int(chunkPaths.length - 1), 1 + r.int(chunkPaths.length - 1)].slice(0, 1 + r.int(2));
        const importsFrom = [...new Set(others.map((step) => path.basename(chunkPaths[(i + step) % chunkPaths.length])))];
        return generateChunkJs(r, bytes, { banner: path.basename(p, '.js'), importsFrom });
      },
    });
  });
  return files;
}

// --- writing and zipping -----------------------------------------------------------------------

function writeBundle(dir, layout, random) {
  let soFar = 0;
  for (const file of layout) {
    const made = file.make(random.fork(file.path), soFar);
    // A module comes with its code as a classic script, which vm can compile without flags.
    const module = typeof made === 'object' && !Buffer.isBuffer(made);
    const content = module ? made.text : made;
    if (file.path.endsWith('.js')) {
      // A generator bug that produced invalid JavaScript would make `validate` fail for the wrong
      // reason; compiling (without running) catches it here, with the file named.
      try {
        new Script(module ? made.classic : made, { filename: file.path });
      } catch (error) {
        throw new Error(`generated ${file.path} is not valid JavaScript (generator bug): ${error.message}`, { cause: error });
      }
    }
    const target = path.join(dir, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    chmodSync(target, 0o644);
    utimesSync(target, FIXED_MTIME, FIXED_MTIME);
    soFar += Buffer.byteLength(content);
  }
}

function listFiles(dir, prefix = '') {
  const found = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(dir, relative));
    else found.push(relative);
  }
  return found.sort();
}

function zipFolder(dir, zipPath) {
  rmSync(zipPath, { force: true });
  // Names in sorted order and a fixed time zone: the same folder always gives the same bytes.
  const result = spawnSync('zip', ['-X', '-r', '-6', '-q', zipPath, ...listFiles(dir)], {
    cwd: dir,
    env: { ...process.env, TZ: 'UTC' },
    encoding: 'utf8',
  });
  if (result.error || result.status !== 0) {
    throw new Error(`zip failed for ${dir}: ${result.error?.message ?? result.stderr.trim()}`);
  }
}

function describeFolder(dir) {
  const files = listFiles(dir);
  const rawBytes = files.reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0);
  return { files: files.length, rawBytes };
}

/**
 * Makes sure the inputs exist and are current, generating what is missing.
 * Without `zip`, the folders and the bomb are still made; typical.zip and max.zip are then null.
 */
export async function prepareInputs({ workDir, seed = DEFAULT_SEED, zipAvailable, regenerate = false, log = () => {} }) {
  const root = path.join(workDir, 'inputs');
  const stampPath = path.join(root, 'stamp.json');
  const stamp = { generator: GENERATOR_VERSION, seed };
  const paths = {
    typicalDir: path.join(root, 'typical'),
    typicalZip: path.join(root, 'typical.zip'),
    maxDir: path.join(root, 'max'),
    maxZip: path.join(root, 'max.zip'),
    maxJsDir: path.join(root, 'maxjs'),
    maxJsZip: path.join(root, 'maxjs.zip'),
    maxMinDir: path.join(root, 'maxmin'),
    maxMinZip: path.join(root, 'maxmin.zip'),
    bombZip: path.join(root, 'bomb.zip'),
    fixturesSmall: path.join(root, 'fixtures-10k.json'),
    fixturesLarge: path.join(root, 'fixtures-100k.json'),
  };

  let current = false;
  if (!regenerate && existsSync(stampPath)) {
    try {
      const found = JSON.parse(readFileSync(stampPath, 'utf8'));
      current = found.generator === stamp.generator && found.seed === stamp.seed;
    } catch {
      current = false;
    }
  }
  current &&= [paths.typicalDir, paths.maxDir, paths.maxJsDir, paths.maxMinDir, paths.bombZip, paths.fixturesSmall, paths.fixturesLarge].every((p) => existsSync(p));

  let generated = false;
  if (!current) {
    log('generating benchmark inputs (first run, or the generator changed)…');
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const random = createRandom(seed);
    writeBundle(paths.typicalDir, typicalLayout(), random.fork('typical'));
    writeBundle(paths.maxDir, maxLayout(), random.fork('max'));
    writeBundle(paths.maxJsDir, maxJsLayout(), random.fork('maxjs'));
    writeBundle(paths.maxMinDir, maxMinifiedLayout(), random.fork('maxmin'));
    await writeZeroBomb(paths.bombZip, 'payload.js', BOMB_BYTES);
    writeFixtureFile(paths.fixturesSmall, FIXTURE_ROWS.small, random.fork('fixtures-small'));
    writeFixtureFile(paths.fixturesLarge, FIXTURE_ROWS.large, random.fork('fixtures-large'));
    // The stamp goes last: an interrupted run leaves no stamp and is redone next time.
    writeFileSync(stampPath, `${JSON.stringify(stamp)}\n`);
    generated = true;
  }
  if (zipAvailable) {
    for (const [dir, zipPath] of [[paths.typicalDir, paths.typicalZip], [paths.maxDir, paths.maxZip], [paths.maxJsDir, paths.maxJsZip], [paths.maxMinDir, paths.maxMinZip]]) {
      if (!existsSync(zipPath)) {
        log(`zipping ${path.basename(dir)}/ with zip -X -r -6…`);
        zipFolder(dir, zipPath);
      }
    }
  }

  const zipBytes = (p) => (existsSync(p) ? statSync(p).size : null);
  const inputs = {
    generator: GENERATOR_VERSION,
    seed,
    generated,
    typical: { dir: paths.typicalDir, zip: zipBytes(paths.typicalZip) === null ? null : paths.typicalZip, ...describeFolder(paths.typicalDir), zipBytes: zipBytes(paths.typicalZip) },
    max: { dir: paths.maxDir, zip: zipBytes(paths.maxZip) === null ? null : paths.maxZip, ...describeFolder(paths.maxDir), zipBytes: zipBytes(paths.maxZip) },
    maxjs: { dir: paths.maxJsDir, zip: zipBytes(paths.maxJsZip) === null ? null : paths.maxJsZip, ...describeFolder(paths.maxJsDir), zipBytes: zipBytes(paths.maxJsZip) },
    maxmin: { dir: paths.maxMinDir, zip: zipBytes(paths.maxMinZip) === null ? null : paths.maxMinZip, ...describeFolder(paths.maxMinDir), zipBytes: zipBytes(paths.maxMinZip) },
    bomb: { zip: paths.bombZip, files: 1, rawBytes: BOMB_BYTES, zipBytes: zipBytes(paths.bombZip) },
    fixtures: {
      small: { file: paths.fixturesSmall, rows: FIXTURE_ROWS.small, bytes: statSync(paths.fixturesSmall).size },
      large: { file: paths.fixturesLarge, rows: FIXTURE_ROWS.large, bytes: statSync(paths.fixturesLarge).size },
    },
  };
  checkMaxIsInsideLimits('max', inputs.max);
  checkMaxIsInsideLimits('maxjs', inputs.maxjs);
  checkMaxIsInsideLimits('maxmin', inputs.maxmin);
  return inputs;
}

/** A max bundle is only meaningful if it sits just inside every limit; say so loudly if tuning drifted. */
function checkMaxIsInsideLimits(name, max) {
  const problems = [];
  if (max.files !== LIMITS.files) problems.push(`${max.files} files, expected exactly ${LIMITS.files}`);
  if (max.rawBytes >= LIMITS.rawBytes) problems.push(`${max.rawBytes} bytes unzipped, limit ${LIMITS.rawBytes}`);
  if (max.zipBytes !== null && max.zipBytes >= LIMITS.zipBytes) problems.push(`${name}.zip is ${max.zipBytes} bytes, limit ${LIMITS.zipBytes}`);
  if (problems.length > 0) {
    throw new Error(`the generated ${name} bundle is not inside the limits (${problems.join('; ')}); retune bench/inputs.mjs and bump GENERATOR_VERSION`);
  }
}
