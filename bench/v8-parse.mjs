// What js-syntax cannot avoid: V8's own parse of the scripts it checks. Prints the CPU time
// `new vm.Script` takes over a folder's .js files (those js-syntax parses: not the large minified
// builds it leaves to their minifier), beside `unzip -t` of the matching zip. Half of the
// benchmark's yardstick for `validate maxjs.zip` (the other half is `unzip -t`), which runs it
// with --json to read the parse time alone. Run `npm run bench` once first (it makes the inputs), then:
//   node bench/v8-parse.mjs                      # bench/.work/inputs/maxjs and maxjs.zip
//   node bench/v8-parse.mjs <folder> [<zip>]
//   node bench/v8-parse.mjs --json <folder>      # {"ms": <parse CPU, best of 3>} and nothing else
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { leastCpuMs, median } from './measure.mjs';

// As the CLI runs once it has parsed a few megabytes: no compilation cache (src/cli/parse-memory.ts).
v8.setFlagsFromString('--no-compilation-cache');

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const json = args[0] === '--json';
if (json) args.shift();
const folder = path.resolve(args[0] ?? path.join(root, 'bench/.work/inputs/maxjs'));
const zip = json ? undefined : (args[1] ?? (args[0] ? undefined : `${folder}.zip`));
if (!existsSync(folder)) {
  console.error(`${folder} does not exist: run npm run bench first, or name a folder.`);
  process.exit(2);
}
const { isMinifiedBuild } = await import(`${root}/dist/core/code/script-syntax.js`);

function* scripts(dir) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* scripts(full);
    else if (name.endsWith('.js')) yield full;
  }
}
const sources = [];
let skipped = 0;
for (const file of scripts(folder)) {
  const bytes = readFileSync(file);
  if (isMinifiedBuild([bytes])) skipped += bytes.length;
  else sources.push(bytes.toString('utf8'));
}
const bytes = sources.reduce((sum, s) => sum + s.length, 0);

const parse = leastCpuMs(3, () => {
  for (const source of sources) new vm.Script(source, { filename: 'script.js' });
});
if (json) {
  console.log(JSON.stringify({ ms: parse }));
  process.exit(0);
}
console.log(`${sources.length} scripts, ${(bytes / 1e6).toFixed(1)} MB parsed (${(skipped / 1e6).toFixed(1)} MB of minified builds left out)`);
console.log(`V8 parse: ${parse.toFixed(0)} ms of CPU (best of 3), ${(bytes / 1e3 / parse).toFixed(0)} MB/s`);
if (zip && existsSync(zip)) {
  // unzip's CPU time too (GNU time), so that a busy machine does not tilt the comparison.
  const times = [];
  for (let i = 0; i < 5; i++) {
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', 'unzip', '-tq', zip], { encoding: 'utf8' });
    const [user, system] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
    if (run.error || !Number.isFinite(user) || !Number.isFinite(system)) {
      console.error('unzip -t could not be timed: it needs Info-ZIP unzip and GNU time at /usr/bin/time.');
      process.exit(2);
    }
    times.push((user + system) * 1000);
  }
  const unzip = median(times);
  console.log(`unzip -t ${path.basename(zip)}: ${unzip.toFixed(0)} ms of CPU (median of 5); the parse alone is ${(parse / unzip).toFixed(2)}x of it`);
}
