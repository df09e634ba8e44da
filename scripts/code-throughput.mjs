// Measures the code checks on real library code: the tokenizer with every JavaScript rule, and
// validate as a whole, over a folder of the largest .js files in node_modules (about 30 MB).
// Figures are CPU time (less sensitive to a shared machine than the clock). Run `npm run build`
// first: node scripts/code-throughput.mjs
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { leastCpuMs } from '../bench/measure.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { jsFileState, beginScript } = await import(`${root}/dist/core/code/js-scanner.js`);
const { FileReport } = await import(`${root}/dist/core/code/file-report.js`);
const { parseManifest } = await import(`${root}/dist/core/manifest/read-manifest.js`);
const { validateBundle } = await import(`${root}/dist/core/validate.js`);

const LIMIT = 31_000_000;
function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat?.isDirectory() && name !== 'test') yield* walk(full);
    else if (stat?.isFile() && name.endsWith('.js') && stat.size > 150_000) yield full;
  }
}
const folder = mkdtempSync(path.join(tmpdir(), 'code-throughput-'));
mkdirSync(path.join(folder, 'lib'));
let total = 0;
const files = [];
for (const file of [...walk(path.join(root, 'node_modules'))].sort()) {
  const size = statSync(file).size;
  if (total + size > LIMIT) continue;
  const to = path.join(folder, 'lib', `${files.length}-${path.basename(file)}`);
  copyFileSync(file, to);
  files.push(to);
  total += size;
}
const manifest = { name: 'Corpus', shortName: 'Corpus', type: 'quoting_extension', version: '1.0.0', description: 'Library code.', entry: 'index.html' };
writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
writeFileSync(path.join(folder, 'index.html'), '<!doctype html><title>x</title>');

const buffers = files.map((f) => readFileSync(f));
const context = { manifest: parseManifest(Buffer.from(JSON.stringify(manifest))), files: [] };
const tokenizer = leastCpuMs(5, () => {
  for (const bytes of buffers) {
    const state = jsFileState({ path: 'x.js', kind: 'file', declaredSize: 0, readable: true }, context, new FileReport('x.js'));
    const walker = beginScript(state);
    for (let o = 0; o < bytes.length; o += 65536) walker.lexer.write(bytes.subarray(o, o + 65536));
    walker.lexer.end();
    state.flush();
  }
});
const clock = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  await validateBundle(folder);
  clock.push(performance.now() - start);
}
const mb = total / 1e6;
console.log(`${files.length} files, ${mb.toFixed(1)} MB`);
console.log(`tokenizer and rules: ${tokenizer.toFixed(0)} ms of CPU, ${(mb / (tokenizer / 1000)).toFixed(0)} MB/s`);
console.log(`validateBundle over the folder: ${Math.min(...clock).toFixed(0)} ms (best of 5)`);
rmSync(folder, { recursive: true, force: true });
