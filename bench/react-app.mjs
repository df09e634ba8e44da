// The React template as a new author gets it, for the figure that compares validating its build
// with building it: `pipeline-tool init --template react` into bench/.work/react-app, linked to
// this checkout, `npm install` (from npm's cache or the registry), then one `vite build` so that
// dist/ exists, and its ESLint config without pipeline-tool's plugin beside its own. Reused while the template and pipeline-tool's version are unchanged; it takes a
// minute the first time, for npm.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The React template is composed from several of these layers (templates/templates.json).
const TEMPLATE = 'templates';

/** A hash of the template's files and pipeline-tool's package.json: a change remakes the app. */
function stampOf(root) {
  const hash = createHash('sha256');
  const add = (relative) => {
    const file = path.join(root, relative);
    if (statSync(file).isDirectory()) for (const name of readdirSync(file).sort()) add(path.join(relative, name));
    else hash.update(`${relative}\0`).update(readFileSync(file)).update('\0');
  };
  add(TEMPLATE);
  add('package.json');
  return hash.digest('hex');
}

function run(file, args, cwd) {
  const result = spawnSync(file, args, { cwd, encoding: 'utf8', timeout: 600_000, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  if (result.status !== 0) throw new Error(`${path.basename(file)} ${args.join(' ')} exited ${result.status ?? result.signal}: ${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n')}`);
}

/** The app's ESLint config without pipeline-tool's plugin: the yardstick of linting with it. */
export const WITHOUT_PLUGIN = 'eslint.without-pipeline.config.js';

function writeConfigWithoutPlugin(dir) {
  const config = readFileSync(path.join(dir, 'eslint.config.js'), 'utf8');
  const without = config.replace(/^import pipeline from 'pipeline-tool\/eslint';\n/m, '').replace(/, pipeline\.configs\.recommended/, '');
  if (/pipeline\.configs|pipeline-tool\/eslint/.test(without)) throw new Error("the template's eslint.config.js no longer adds pipeline.configs.recommended as bench/react-app.mjs expects; update it");
  writeFileSync(path.join(dir, WITHOUT_PLUGIN), without);
}

/**
 * Returns `{ dir, dist, viteBin, eslintBin }`, or `{ error }` when the app cannot be made here (no registry and
 * nothing cached, say), which marks its figure SKIP instead of stopping the benchmark.
 */
export function prepareReactApp({ workDir, bin, root, log = () => {} }) {
  const dir = path.join(workDir, 'react-app');
  const stampPath = path.join(dir, '.bench-stamp');
  const stamp = stampOf(root);
  const viteBin = path.join(dir, 'node_modules', 'vite', 'bin', 'vite.js');
  try {
    const current = existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp && existsSync(viteBin);
    if (!current) {
      log('making the React template app (init, npm install: a minute the first time)…');
      rmSync(dir, { recursive: true, force: true });
      run(process.execPath, [bin, 'init', dir, '--template', 'react', '--yes', '--name', 'Bench React Tool', '--pipeline-tool', root], workDir);
      run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
      writeFileSync(stampPath, stamp);
    }
    run(process.execPath, [viteBin, 'build', '--logLevel', 'error'], dir);
    writeConfigWithoutPlugin(dir);
    return { dir, dist: path.join(dir, 'dist'), viteBin, eslintBin: path.join(dir, 'node_modules', 'eslint', 'bin', 'eslint.js') };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
