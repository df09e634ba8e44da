// `npm run demo`: the main job end to end, through the real binary, in a temporary folder.
//   1. init   a quoting extension, with every answer given as a flag
//   2. pack   its src/ folder into the marketplace zip
//   3. validate that zip
// Each step's own output is shown; the script stops at the first step that fails, with its exit code.
// The temporary folder is removed at the end unless --keep is given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'pipeline-tool.js');
const keep = process.argv.includes('--keep');
const work = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-demo-'));
const project = path.join(work, 'kitchen-estimator');
const zip = path.join(project, 'dist', 'kitchen-1.0.0.zip');

const steps = [
  {
    title: 'Scaffold a quoting extension',
    args: ['init', project, '--type', 'quoting_extension', '--name', 'Kitchen Estimator', '--short-name', 'Kitchen', '--yes'],
  },
  { title: 'Pack its src/ folder into the marketplace zip', args: ['pack', path.join(project, 'src'), '-o', zip] },
  { title: 'Validate the zip', args: ['validate', zip] },
];

let failed = 0;
for (const [index, step] of steps.entries()) {
  console.log(`\n── ${index + 1}/${steps.length} ${step.title}`);
  console.log(`$ pipeline-tool ${step.args.map(quote).join(' ')}`);
  const run = spawnSync(process.execPath, [bin, ...step.args], { cwd: work, stdio: 'inherit' });
  const status = run.status ?? 2;
  if (status !== 0) {
    console.error(`\ndemo: step ${index + 1} failed with exit code ${status}${run.signal ? ` (${run.signal})` : ''}.`);
    failed = status;
    break;
  }
}

if (keep || failed) {
  console.log(`\nThe demo project is in ${project}`);
  if (!failed) console.log(`Run it in the emulated host: node ${path.relative(process.cwd(), bin) || bin} dev ${path.join(project, 'src')}`);
} else {
  rmSync(work, { recursive: true, force: true });
  console.log('\nDone: scaffolded, packed and validated. Run `npm run demo -- --keep` to keep the project and open it with `pipeline-tool dev`.');
}
process.exitCode = failed;

function quote(arg) {
  return /^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
