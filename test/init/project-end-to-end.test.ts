import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionOf } from '../helpers/built-app.js';
import { withCertificates } from '../helpers/certificates.js';
import { REPO } from './helpers.js';

/*
 * Slow (a few minutes on a 2-core machine, most of it npm, tsc and vitest): the whole road a new
 * user takes, for real, up to the first push. pipeline-tool is packed with `npm pack` and installed
 * globally from that tarball into a private prefix; that command scaffolds each template for both
 * tool types, and each project is installed where it was made, as its author would (which writes
 * the lockfile they commit). Then the prefix and the tarball are deleted, and each project is
 * copied, without node_modules, to another folder at another depth, as CI's checkout is: there the
 * steps of the project's CI workflow run as they are written, `npm ci` first, then every script
 * of its package.json, some twice, as a release would run them. Scripts and steps are read from
 * the generated files, so this keeps testing whatever the templates come to define.
 *
 * The two projects of each template (vanilla, React, Vue) have the same dependencies, so each
 * template's packages are installed once: the second project starts from a copy of the first one's
 * node_modules (hard links) and lockfile, where its own npm install fixes what differs, and CI's
 * npm ci runs in the first project's copy. The findings' places are checked once per framework.
 */

const NPM_FLAGS = '--prefer-offline --no-audit --no-fund';
/** Scripts that serve until stopped; `dev` is started, checked and stopped instead. */
const SERVING = new Set(['dev', 'start', 'watch']);
/** Names npm runs by itself around its own commands, not meant to be run on their own. */
const LIFECYCLE = /^(?:pre|post)|^(?:install|prepare|prepack|prepublishOnly)$/;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** npm and the tool as a user's shell would run them: no settings inherited from an outer npm. */
function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nor what vitest sets for itself (VITEST, NODE_ENV=test), which would change how vite and vitest run.
  for (const [key, value] of Object.entries(withCertificates(process.env))) if (!/^(?:npm_|VITEST)/i.test(key) && !['FORCE_COLOR', 'NODE_ENV', 'TEST'].includes(key)) env[key] = value;
  // The workflow's own `npm ci` line runs unchanged; these make it as quiet and cache-friendly.
  return { ...env, NO_COLOR: '1', CI: 'true', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

function sh(command: string, cwd: string, timeout = 300_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd, shell: true, env: environment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(command: string, cwd: string, timeout?: number): Promise<Ran> {
  const started = Date.now();
  const ran = await sh(command, cwd, timeout);
  if (process.env['E2E_TIMES']) process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)}s  ${command}\n`);
  expect(ran.code, `${command} in ${cwd}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
  return ran;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The `run:` commands of a workflow, in order. A block (`run: |`) is its lines joined; a step
 * that `uses:` an action is GitHub's part (checkout, setup-node, upload) and is left out.
 */
function workflowRuns(yaml: string): string[] {
  const lines = yaml.split(/\r?\n/);
  const runs: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*(?:-\s+)?)run:\s*(.*)$/.exec(lines[i]!);
    if (!match) continue;
    const value = match[2]!.trim();
    const keyColumn = match[1]!.length;
    if (value !== '|' && value !== '>') {
      runs.push(value.replace(/^(['"])(.*)\1$/, '$2'));
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > keyColumn)) block.push(lines[++i]!.trim());
    runs.push(block.filter((line) => line !== '').join(value === '|' ? '\n' : ' '));
  }
  return runs;
}

/** The scripts a CI line runs through npm (`npm run pack -- --format github` runs pack). */
function scriptsRunBy(line: string): string[] {
  return [...line.matchAll(/\bnpm (?:run(?:-script)?|test|t)\b\s*([\w:.-]*)/g)].map((match) => (/^npm (?:test|t)\b/.test(match[0]) ? 'test' : match[1]!));
}

/** Starts the dev script on a free port, fetches the page it prints, and stops it. */
async function checkDevServer(project: string): Promise<void> {
  const child = spawn('npm run dev -- --port 0', { cwd: project, shell: true, detached: true, env: environment(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run dev printed no address:\n${output}`)), 60_000);
      const look = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const found = /Open:\s+(http:\/\/\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.on('close', (code) => reject(new Error(`npm run dev ended (${code}):\n${output}`)));
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^<!doctype html>/i);
  } finally {
    // The group: npm, its shell, and the server it started.
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }
}

/**
 * What CI runs, as the workflow writes it, then every other script of the project, except servers,
 * which are started and stopped. Returns the workflow's run lines.
 */
async function runWorkflowAndScripts(root: string, options: { skipInstall?: boolean } = {}): Promise<string[]> {
  const pkg = await readJson<{ scripts: Record<string, string> }>(path.join(root, 'package.json'));
  const runs = workflowRuns(await readFile(path.join(root, '.github/workflows/validate.yml'), 'utf8'));
  expect(runs.length).toBeGreaterThan(2);
  expect(runs[0]).toBe('npm ci');
  for (const line of options.skipInstall ? runs.slice(1) : runs) await ok(line, root);
  const ranByCi = new Set(runs.flatMap(scriptsRunBy));
  for (const name of Object.keys(pkg.scripts)) {
    if (ranByCi.has(name) || LIFECYCLE.test(name) || SERVING.has(name)) continue;
    await ok(`npm run ${name}`, root);
  }
  if (pkg.scripts['dev'] !== undefined) await checkDevServer(root);
  return runs;
}

/** The package as a dependency: importable, and typed (a wrong call fails the type check). */
async function checkLibrary(project: string): Promise<void> {
  await writeFile(
    path.join(project, 'library.mts'),
    `import { bumpVersion, validateBundle, type Report } from 'pipeline-tool';
import type { BridgeAddLineDto } from 'pipeline-tool/bridge';
export const line: BridgeAddLineDto = { qty: 1, unitPrice: 95, taxRate: 0.15 };
export const check: (bundle: string) => Promise<Report> = validateBundle;
// @ts-expect-error a release is a string; were the types missing, this line would be an error
export const wrong = () => bumpVersion('src', 3);
const report = await validateBundle('src');
console.log(JSON.stringify({ ok: report.ok, kind: report.kind }));
`,
  );
  const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] };
  await writeFile(path.join(project, 'library.tsconfig.json'), JSON.stringify({ compilerOptions, files: ['library.mts'] }));
  await ok('npx tsc -p library.tsconfig.json', project);
  await writeFile(path.join(project, 'library.mjs'), (await readFile(path.join(project, 'library.mts'), 'utf8')).replace(/^(import type|export const|\/\/).*$/gm, '').replace(/, type Report/, ''));
  expect(JSON.parse((await ok('node library.mjs', project)).stdout)).toEqual({ ok: true, kind: 'folder' });
}

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');
const readJson = async <T>(file: string) => JSON.parse(await readFile(file, 'utf8')) as T;

/** A project as CI's checkout has it: its files, at another path, without what npm installed. */
async function checkOutElsewhere(made: string, elsewhere: string): Promise<string> {
  const root = path.join(elsewhere, 'ci', 'checkout', path.basename(made));
  await cp(made, root, { recursive: true, filter: (source) => path.relative(made, source) !== 'node_modules' });
  return root;
}

describe.skipIf(process.platform === 'win32')('slow: packed, installed, scaffolded; a copy of each new project passes npm ci and every CI step elsewhere', () => {
  let work: string;
  let installedVersion: string;
  let shipped: string[];
  let shippedScripts: string[];
  let shippedDist: string[];
  let versionHelp: string;
  /** What init printed for each project, by folder name. */
  const created = new Map<string, string>();

  const VANILLA = [
    // From the global install as it is: init packs that copy into the project.
    { type: 'standalone', flags: ['--short-name', 'Café'], fromTarball: false },
    // Told where to find pipeline-tool: the tarball itself, copied into the project.
    { type: 'quoting_extension', flags: [], fromTarball: true },
  ];
  const FRAMEWORKS = ['react', 'vue'];
  const TYPES = ['standalone', 'quoting_extension'];

  beforeAll(async () => {
    work = await realpath(await mkdtemp(path.join(tmpdir(), 'pipeline-e2e-')));
    // Without `prepare`: it would find dist/ up to date after `npm test`'s build, but after a
    // change to the sources it would rebuild dist/ under the other test files using it.
    const packed = await ok(`npm pack --ignore-scripts --pack-destination ${quote(work)} ${NPM_FLAGS}`, REPO);
    const tarball = path.join(work, packed.stdout.trim().split('\n').at(-1)!);
    const prefix = path.join(work, 'global');
    await ok(`npm install -g --prefix ${quote(prefix)} ${quote(tarball)} ${NPM_FLAGS}`, work);
    const installed = path.join(prefix, 'lib', 'node_modules', 'pipeline-tool');
    const bin = path.join(prefix, 'bin', 'pipeline-tool');
    installedVersion = (await ok(`${quote(bin)} --version`, work)).stdout;
    versionHelp = (await ok(`${quote(bin)} version --help`, work)).stdout;
    shipped = (await readdir(installed)).sort();
    shippedScripts = await readdir(path.join(installed, 'scripts'));
    shippedDist = await readdir(path.join(installed, 'dist'));

    const made = path.join(work, 'made');
    for (const { type, flags, fromTarball } of VANILLA) {
      const extra = [...flags, ...(fromTarball ? ['--pipeline-tool', tarball] : [])].map(quote).join(' ');
      created.set(type, (await ok(`${quote(bin)} init ${quote(path.join(made, type))} --yes --type ${type} --name 'Café Estimator' ${extra}`, work)).stdout);
    }
    for (const template of FRAMEWORKS) {
      for (const type of TYPES) {
        const name = `${template}-${type}`;
        created.set(name, (await ok(`${quote(bin)} init ${quote(path.join(made, name))} --yes --template ${template} --type ${type} --name 'Café Estimator'`, work)).stdout);
      }
    }
    // Nothing of the kit is left outside the projects: they install from what they carry.
    await rm(prefix, { recursive: true, force: true });
    await rm(tarball, { force: true });
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('the tarball installs a working command, with the library and its types, and nothing of the build', async () => {
    const { version } = await readJson<{ version: string }>(path.join(REPO, 'package.json'));
    expect(installedVersion).toBe(`${version}\n`);
    expect(versionHelp).toContain('<release>');
    expect(shipped).toEqual(['README.md', 'bin', 'dist', 'docs', 'node_modules', 'package.json', 'schemas', 'scripts', 'templates']);
    expect(shippedScripts).toEqual(['prepare.mjs']);
    expect(shippedDist).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'cli']));
    expect(shippedDist).not.toContain('.build-inputs');
  });

  // The two vanilla projects one after the other, the second starting from the first one's packages
  // (as the React and Vue projects below do), beside the framework projects.
  it.concurrent('vanilla, both tool types: install from their own vendor/ anywhere, pass every CI step and script, pack again after a change and after a release', async () => {
    let first: { made: string; root: string } | undefined;
    for (const { type } of VANILLA) {
      first = await checkVanilla(type, first);
    }
  }, 900_000);

  async function checkVanilla(type: string, first: { made: string; root: string } | undefined): Promise<{ made: string; root: string }> {
    const made = path.join(work, 'made', type);
    const { version } = await readJson<{ version: string }>(path.join(REPO, 'package.json'));
    const spec = `file:vendor/pipeline-tool-${version}.tgz`;
    expect(created.get(type)).toContain(spec);
    const pkg = await readJson<{ scripts: Record<string, string>; devDependencies: Record<string, string> }>(path.join(made, 'package.json'));
    expect(pkg.devDependencies['pipeline-tool']).toBe(spec);
    for (const name of ['dev', 'test', 'validate', 'pack']) if (pkg.scripts[name] !== undefined) expect(created.get(type)).toContain(name === 'test' ? 'npm test' : `npm run ${name}`);

    // As the author: install where it was made, which writes the lockfile they commit. The second
    // project's npm install starts from the first one's packages and lockfile, and fixes what differs
    // (its own vendor/ tarball).
    if (first !== undefined) await shareInstall(first.made, made);
    await ok(`npm install ${NPM_FLAGS}`, made, 480_000);
    const root = await checkOutElsewhere(made, path.join(work, 'elsewhere', type));

    // As CI, in the copy: the workflow's steps (npm ci, the type check, validate, pack), then the other
    // scripts. npm ci runs in the first project's copy; the second's packages are those its own npm
    // install has just written (its vendor/ tarball is not the first one's).
    if (first !== undefined) await ok(`cp -al ${quote(path.join(made, 'node_modules'))} ${quote(path.join(root, 'node_modules'))}`, root);
    const runs = await runWorkflowAndScripts(root, { skipInstall: first !== undefined });
    if (type === 'quoting_extension') await checkLibrary(root);

    // pack again: dist/ is build output, so the zip of the same version is replaced.
    const zipName = type === 'standalone' ? 'café-1.0.0.zip' : 'café-estimator-1.0.0.zip';
    const zip = path.join(root, 'dist', zipName);
    const before = await sha256(zip);
    await writeFile(path.join(root, 'src/app.js'), `${await readFile(path.join(root, 'src/app.js'), 'utf8')}// changed\n`);
    expect((await ok('npm run pack', root)).stdout).toContain('(replaced)');
    expect(await sha256(zip)).not.toBe(before);

    // A release: the version moves in both files, and the next zip is named after it.
    const released = await ok('npx pipeline-tool version patch', root);
    expect(released.stdout).toContain('Next: npm run pack');
    expect((await readJson<{ version: string }>(path.join(root, 'package.json'))).version).toBe('1.0.1');
    await ok('npm run pack', root);
    expect((await readdir(path.join(root, 'dist'))).sort()).toEqual([zipName, zipName.replace('1.0.0', '1.0.1')].sort());

    // CI points at the source line that causes a problem, not into the zip.
    const source = await readFile(path.join(root, 'src/app.js'), 'utf8');
    await writeFile(path.join(root, 'src/app.js'), `${source}alert('packed');\n`);
    const line = source.split('\n').length;
    const validateStep = runs.find((run) => run.includes('validate'))!;
    const flagged = await sh(validateStep, root);
    expect(flagged.code).toBe(1);
    expect(flagged.stdout).toMatch(new RegExp(`^::warning file=src/app\\.js,line=${line},col=1,title=pipeline-tool dialog-call::`, 'm'));
    return { made, root };
  }

  /** Starts a project from another's installed packages (hard links) and lockfile. */
  async function shareInstall(from: string, made: string): Promise<void> {
    await ok(`cp -al ${quote(path.join(from, 'node_modules'))} ${quote(path.join(made, 'node_modules'))}`, made);
    await ok(`cp ${quote(path.join(from, 'package-lock.json'))} ${quote(path.join(made, 'package-lock.json'))}`, made);
  }

  // React and Vue at once, each installing its packages once for its two projects.
  it.concurrent.each(FRAMEWORKS)('%s: both tool types install from their own vendor/ anywhere, test, type-check, build, pack and validate, and pass every CI step', async (template) => {
    let first: { made: string; root: string } | undefined;
    for (const type of TYPES) {
      const made = path.join(work, 'made', `${template}-${type}`);
      expect(created.get(`${template}-${type}`)).toMatch(/npm test[^]*npm run build[^]*npm run validate[^]*npm run pack/);
      if (first !== undefined) await shareInstall(first.made, made);
      // As the author: install where it was made, which writes the lockfile they commit.
      await ok(`npm install ${NPM_FLAGS}`, made, 480_000);
      const root = await checkOutElsewhere(made, path.join(work, 'elsewhere', `${template}-${type}`));
      // The workflow runs npm ci, then each script: typecheck, lint, test, build, validate (--max-warnings 0), pack.
      // Its npm ci runs in the first project's copy only: the second's node_modules is a copy of what
      // that npm ci wrote from the same lockfile, which the second's own npm install has just confirmed.
      if (first !== undefined) await ok(`cp -al ${quote(path.join(first.root, 'node_modules'))} ${quote(path.join(root, 'node_modules'))}`, root);
      const runs = await runWorkflowAndScripts(root, { skipInstall: first !== undefined });
      expect(new Set(runs.flatMap(scriptsRunBy))).toEqual(new Set(['typecheck', 'lint', 'test', 'build', 'validate', 'pack']));
      expect(await readdir(path.join(root, 'release'))).toEqual(['café-estimator-1.0.0.zip']);
      // The built folder is what ships: the page, one script and one stylesheet, the manifest; maps stay out.
      const listed = JSON.parse((await ok('npx pipeline-tool pack --dry-run --format json', root)).stdout) as { included: { path: string }[] };
      expect(listed.included.map((file) => file.path.replace(/-[\w-]{8}\./, '-#.')).sort()).toEqual(['assets/index-#.js', 'assets/style-#.css', 'index.html', 'manifest.json']);
      // The findings' places come from the build's maps, the same for both tool types: checked once.
      if (first === undefined) await checkFindingsAtSource(root, template, runs);
      first ??= { made, root };
    }
  }, 1_200_000);

  /**
   * The build's findings at the author's source, through the maps the build writes: a use of
   * localStorage and an innerHTML in the app's component, each at its line, in JSON, in the
   * workflow's annotations and in its SARIF. React's and Vue's own innerHTML are there (a --rule
   * flag, which no override can undo, shows them in node_modules/), yet quiet, as the project
   * file's override for node_modules/ says. The component is restored afterwards.
   */
  async function checkFindingsAtSource(root: string, template: string, runs: string[]): Promise<void> {
    const file = template === 'react' ? 'src/App.tsx' : 'src/App.vue';
    const original = await readFile(path.join(root, file), 'utf8');
    const anchor = template === 'react' ? 'export function App() {\n' : 'const bridge = findBridge();\n';
    expect(original, file).toContain(anchor);
    const edited = original.replace(anchor, `${anchor}  const note = localStorage.getItem('note');\n  if (note !== null) document.body.innerHTML = note;\n`);
    const storage = positionOf(edited, 'localStorage');
    const html = positionOf(edited, 'innerHTML');
    await writeFile(path.join(root, file), edited);
    try {
      const built = await ok('npm run build', root);
      expect(built.stdout + built.stderr).toContain(`[pipeline-tool] ${file}:${storage.line}:${storage.column}: localStorage is not dependable`);

      type Found = { ruleId: string; file?: string; line?: number; column?: number; built?: { file: string } };
      const findings = async (flags: string) => {
        const ran = await sh(`npx pipeline-tool validate --format json ${flags}`, root);
        expect(ran.code, ran.stderr).toBe(0);
        return (JSON.parse(ran.stdout) as { problems: Found[] }).problems;
      };
      const problems = await findings('');
      expect(problems.find((problem) => problem.ruleId === 'browser-storage')).toMatchObject({ file, ...storage, built: { file: expect.stringMatching(/^assets\/index-[\w-]{8}\.js$/) } });
      expect(problems.filter((problem) => problem.ruleId === 'unsafe-html')).toEqual([expect.objectContaining({ file, ...html })]);
      // The runtime's own, quiet above: placed in its package, matched by the override's pattern.
      const everywhere = (await findings('--rule unsafe-html=warn')).filter((problem) => problem.ruleId === 'unsafe-html' && problem.file !== file);
      expect(everywhere.length).toBeGreaterThan(0);
      for (const problem of everywhere) expect(problem.file).toMatch(template === 'react' ? /^node_modules\/react-dom\// : /^node_modules\/@vue\//);

      // CI: the annotations name the source line, and so does the SARIF for code scanning.
      const annotate = runs.find((run) => run.includes('--format github') && run.includes('validate'))!;
      const annotated = await sh(annotate, root);
      expect(annotated.code).toBe(1);
      expect(annotated.stdout).toMatch(new RegExp(`^::warning file=${file.replace('.', '\\.')},line=${storage.line},col=${storage.column},title=pipeline-tool browser-storage::`, 'm'));
      const sarifStep = runs.find((run) => run.includes('--format sarif'))!;
      await ok(sarifStep, root);
      const sarif = JSON.parse(await readFile(path.join(root, 'pipeline-tool.sarif'), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
      const located = sarif.runs[0]!.results.map((result) => [result.ruleId, result.locations[0]!.physicalLocation.artifactLocation.uri, result.locations[0]!.physicalLocation.region.startLine]);
      expect(located).toEqual(expect.arrayContaining([['browser-storage', file, storage.line], ['unsafe-html', file, html.line]]));
    } finally {
      await writeFile(path.join(root, file), original);
    }
  }

});

describe('reading a workflow', () => {
  it('takes the run lines in order, blocks included, and the npm scripts they run', () => {
    const yaml = ['steps:', '  - uses: actions/checkout@v4', '  - run: npm ci', "  - run: 'npm test'", '  - name: Both', '    run: |', '      npm run a', '      npm run b -- --x', '  - run: echo done'].join('\n');
    expect(workflowRuns(yaml)).toEqual(['npm ci', 'npm test', 'npm run a\nnpm run b -- --x', 'echo done']);
    expect(scriptsRunBy('npm run a\nnpm run b -- --x && npm test')).toEqual(['a', 'b', 'test']);
  });
});
