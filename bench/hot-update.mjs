#!/usr/bin/env node
// What checking each served module costs a hot update of the React template. Two Vite servers run
// the template's sources (copied into a temporary folder, its packages linked from this checkout)
// with pipeline-tool/vite: one with the served-module checks, one with `checkServed: false`. Each
// round edits src/App.tsx and has Vite transform it again as a hot update would: the time until
// the module is served anew is compared (goal: at most 1.1 times the update without checks). The
// checks run after that, off the request's path; the time from the save until their result is in
// the host page's state (what the findings panel shows) is printed too. The servers take turns,
// and every round waits for the checks before the next save.
//
// Usage: npm run build, then node bench/hot-update.mjs [rounds]   (default 40)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[2] ?? 40);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`rounds must be a whole number of at least 1, got "${process.argv[2]}"`);
  process.exit(2);
}
const GOAL = 1.1;

const { createServer, createLogger } = await import('vite');
const { default: react } = await import('@vitejs/plugin-react');
const { default: pipeline } = await import(pathToFileURL(path.join(root, 'dist', 'vite', 'index.js')).href);
const { readTemplate } = await import(pathToFileURL(path.join(root, 'dist', 'core', 'init', 'index.js')).href);
/** The React standalone template's files, composed from its layers as init reads them. */
const TEMPLATE = await readTemplate('standalone', 'react');

/** The template's app in a folder of its own, its node_modules linked to this checkout's. */
function makeApp(parent, name) {
  const dir = path.join(parent, name);
  mkdirSync(dir);
  for (const file of TEMPLATE) {
    if (!/^(?:index\.html$|src\/|public\/|pipeline-tool\.config\.json$)/.test(file.path)) continue;
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.contents);
  }
  mkdirSync(path.join(dir, 'node_modules'));
  for (const entry of readdirSync(path.join(root, 'node_modules'))) if (!entry.startsWith('.')) symlinkSync(path.join(root, 'node_modules', entry), path.join(dir, 'node_modules', entry));
  symlinkSync(root, path.join(dir, 'node_modules', 'pipeline-tool'));
  return dir;
}

async function start(dir, checkServed) {
  const plugins = pipeline({ port: 0, checkServed });
  const logger = createLogger('error');
  const server = await createServer({
    root: dir,
    configFile: false,
    logLevel: 'error',
    customLogger: logger,
    plugins: [react(), plugins],
    // Updates are set off by hand, so that the file watcher's timing does not enter the figure.
    server: { port: 0, watch: null },
  });
  await server.listen();
  const checks = plugins.find((plugin) => plugin.name === 'pipeline-tool:serve').servedChecks();
  const environment = server.environments.client;
  // The first load: every module of the app, as the browser would ask for them.
  const seen = new Set();
  const load = async (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    await environment.transformRequest(url);
    const node = await environment.moduleGraph.getModuleByUrl(url);
    await Promise.all([...(node?.importedModules ?? [])].map((imported) => load(imported.url)));
  };
  await load('/src/main.tsx');
  await checks?.idle();
  const app = path.join(dir, 'src', 'App.tsx');
  const original = readFileSync(app, 'utf8');
  let edits = 0;
  return {
    server,
    /**
     * One hot update of src/App.tsx, in milliseconds: from the save to the module Vite serves anew
     * (what the browser waits for), and to the checks' result in the host's state (the panel).
     */
    async update() {
      edits += 1;
      writeFileSync(app, `${original}\n// edit ${edits}\n`);
      const started = performance.now();
      const node = await environment.moduleGraph.getModuleByUrl('/src/App.tsx');
      environment.moduleGraph.invalidateModule(node, new Set(), Date.now(), true);
      await environment.transformRequest('/src/App.tsx');
      const transformed = performance.now();
      await checks?.idle();
      const done = performance.now();
      return { update: transformed - started, panel: done - started };
    },
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const work = mkdtempSync(path.join(tmpdir(), 'bench-hot-update-'));
try {
  const checked = await start(makeApp(work, 'checked'), true);
  const unchecked = await start(makeApp(work, 'unchecked'), false);
  const times = { checked: [], unchecked: [], panel: [] };
  const record = async (app, name) => {
    const { update, panel } = await app.update();
    times[name].push(update);
    if (name === 'checked') times.panel.push(panel);
  };
  // Warm-up rounds, not recorded.
  for (let i = 0; i < 3; i++) {
    await checked.update();
    await unchecked.update();
  }
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await record(checked, 'checked');
      await record(unchecked, 'unchecked');
    } else {
      await record(unchecked, 'unchecked');
      await record(checked, 'checked');
    }
  }
  await checked.server.close();
  await unchecked.server.close();
  const withChecks = median(times.checked);
  const without = median(times.unchecked);
  const ratio = withChecks / without;
  console.log(`hot update of src/App.tsx (React template), from the save to the module served anew, median of ${rounds}:`);
  console.log(`  with served-module checks:    ${withChecks.toFixed(2)} ms`);
  console.log(`  without (checkServed: false): ${without.toFixed(2)} ms`);
  console.log(`  ratio ${ratio.toFixed(2)}x (goal at most ${GOAL}x), ${(withChecks - without).toFixed(2)} ms more`);
  console.log(`from the save to the checks' result in the host page's state (the findings panel): ${median(times.panel).toFixed(2)} ms`);
  process.exitCode = ratio <= GOAL ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
