// What placing findings through source maps costs `validate`. A small Vue app (Vue's runtime is a
// devDependency) is built by esbuild, minified with a hidden map (67 KB of script, a 590 KB map
// with sourcesContent), into two folders that differ only in the map: one has it beside the
// bundle, the other none. Both hold the same findings; with the map, one is placed at its source.
// The two validate runs alternate, as in the benchmark. Run `npm run build` first, then:
//   node bench/source-maps.mjs [runs]
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { median, timePair } from './measure.mjs';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 30);
const work = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-source-maps-'));
try {
  const source = path.join(work, 'src', 'main.js');
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(
    source,
    "import { createApp, h, ref } from 'vue';\n" +
      "const App = { setup() { const n = ref(Number(localStorage.getItem('n') || 0)); return () => h('button', { onClick: () => n.value++ }, String(n.value)); } };\n" +
      "createApp(App).mount('#app');\n",
  );
  const folders = { mapped: path.join(work, 'mapped'), plain: path.join(work, 'plain') };
  for (const folder of Object.values(folders)) {
    mkdirSync(path.join(folder, 'assets'), { recursive: true });
    writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify({ name: 'Counter', shortName: 'Counter', type: 'standalone', version: '1.0.0', description: 'Counts.', entry: 'index.html' }));
    writeFileSync(path.join(folder, 'index.html'), '<!doctype html><html><head><title>Counter</title><script type="module" src="assets/index.js"></script></head><body><div id="app"></div></body></html>\n');
  }
  await build({
    entryPoints: [source],
    bundle: true,
    minify: true,
    format: 'esm',
    sourcemap: 'external',
    outfile: path.join(folders.mapped, 'assets', 'index.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [path.join(root, 'node_modules')],
    logLevel: 'silent',
  });
  copyFileSync(path.join(folders.mapped, 'assets', 'index.js'), path.join(folders.plain, 'assets', 'index.js'));
  const size = (file) => `${Math.round(statSync(file).size / 1000)} KB`;
  console.log(`bundle ${size(path.join(folders.mapped, 'assets', 'index.js'))}, map ${size(path.join(folders.mapped, 'assets', 'index.js.map'))}`);

  const command = (folder) => ({ file: process.execPath, args: [path.join(root, 'bin', 'pipeline-tool.js'), 'validate', folder, '--format', 'json'], cwd: work, expectExit: 0 });
  const placed = JSON.parse(readFileSync(path.join(folders.mapped, 'assets', 'index.js.map'), 'utf8')).sources.length;
  const samples = timePair({ ours: command(folders.mapped), reference: command(folders.plain), runs, warmup: 3 });
  if (samples.failure) throw new Error(`a run misbehaved: ${JSON.stringify(samples.failure)}`);
  const ours = median(samples.ours);
  const reference = median(samples.reference);
  console.log(`validate with the map: ${ours.toFixed(1)} ms; without: ${reference.toFixed(1)} ms; placing costs ${(ours - reference).toFixed(1)} ms (median of ${runs} alternating runs; the map has ${placed} sources)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
