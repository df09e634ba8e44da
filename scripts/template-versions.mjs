// The templates' dependencies are the versions this repository installs and tests together:
// each one an exact version, equal to what package-lock.json holds for it here. A range in a
// template would let a new project pick up a release nobody has tried (a dependency that npm ci
// then refuses, say), on the day an author scaffolds it.
//
//   node scripts/template-versions.mjs          rewrite the templates from package-lock.json
//   node scripts/template-versions.mjs --check  exit 1 if any template differs, saying which
//
// To move a dependency forward: `npm install -D vite@<version>` here, run this script, then
// `npm test` (its end-to-end test installs every template's project from the registry).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIELDS = ['dependencies', 'devDependencies'];
/** The kit itself: init writes where the project gets it from. */
const OWN = 'pipeline-tool';

/**
 * For each package.json of the templates (one per layer that has one: vanilla/, react/, vue/; see
 * templates/templates.json), the dependencies whose version is not the one locked here.
 * Returns the problems, and the fixed text of each package.json that has any.
 */
export function templateVersions(root) {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const locked = (name) => lock.packages?.[`node_modules/${name}`]?.version;
  const problems = [];
  const fixed = new Map();
  const templates = path.join(root, 'templates');
  for (const template of readdirSync(templates).sort()) {
    const file = path.join(templates, template, 'package.json');
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const pkg = JSON.parse(text);
    let changed = false;
    for (const field of FIELDS) {
      for (const [name, version] of Object.entries(pkg[field] ?? {})) {
        if (name === OWN) continue;
        const want = locked(name);
        if (want === undefined) {
          problems.push(`templates/${template}: ${name} is not installed by this repository; add it with npm install -D ${name} so its tests install and try it.`);
        } else if (version !== want) {
          problems.push(`templates/${template}: ${name} is ${JSON.stringify(version)}, but this repository tests ${want}.`);
          pkg[field][name] = want;
          changed = true;
        }
      }
    }
    if (changed) fixed.set(file, `${JSON.stringify(pkg, null, 2)}\n`);
  }
  return { problems, fixed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rootAt = process.argv.indexOf('--root');
  const root = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { problems, fixed } = templateVersions(root);
  if (process.argv.includes('--check')) {
    for (const problem of problems) console.error(problem);
    if (problems.length > 0) console.error('Run `npm run template-versions` to write the tested versions into the templates.');
    process.exit(problems.length > 0 ? 1 : 0);
  }
  for (const [file, text] of fixed) writeFileSync(file, text);
  const unfixable = problems.filter((problem) => problem.includes('is not installed'));
  for (const problem of unfixable) console.error(problem);
  console.log(`${fixed.size} template package.json ${fixed.size === 1 ? 'file' : 'files'} updated.`);
  process.exit(unfixable.length > 0 ? 1 : 0);
}
