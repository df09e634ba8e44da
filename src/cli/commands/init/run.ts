import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { Chalk, type ChalkInstance } from 'chalk';
import {
  ANSWER_FIELDS,
  DEFAULT_FOLDER,
  DEFAULT_TEMPLATE,
  TEMPLATE_NAMES,
  TEMPLATE_SUMMARIES,
  TOOL_TYPES,
  assertTargetUsable,
  checkAnswers,
  completeAnswers,
  defaultAnswer,
  describeAnswerProblem,
  initProject,
  normaliseAnswers,
  toolkitSourceFrom,
  VENDOR_FOLDER,
  type AnswerField,
  type AnswerProblem,
  type InitAnswers,
  type InitResult,
  type TemplateName,
  type ToolType,
} from '../../../core/init/index.js';
import { CONFIG_FILE } from '../../../core/config/file-name.js';
import { defaultZipName } from '../../../core/shipment/zip-name.js';
import { MANIFEST_PATH } from '../../../core/paths.js';
import { UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { useColour, type CliIo } from '../../io.js';
import type { InitFlags } from './command.js';

/** How a project moves from the tarball in vendor/ to the published package. */
export const SWITCH_TO_REGISTRY = 'npm install -D pipeline-tool@latest';

const FLAGS: Record<AnswerField, string> = {
  type: '--type',
  name: '--name',
  shortName: '--short-name',
  description: '--description',
  version: '--version',
};

const QUESTIONS: Record<Exclude<AnswerField, 'type'>, string> = {
  name: 'Name, as the marketplace lists it',
  shortName: 'Short name for tab labels (24 characters at most)',
  description: 'What it does, in one sentence',
  version: 'Version',
};

/**
 * Asks on a terminal for whatever the flags leave out. Without a terminal it never waits for
 * input: --yes fills the gaps with defaults, otherwise the missing flags are named (exit 2).
 * Everything is checked before the first file is written.
 */
export async function runInit(dir: string | undefined, flags: InitFlags, io: CliIo): Promise<number> {
  const colour = new Chalk({ level: useColour(io, io.stdoutIsTTY) ? 1 : 0 });
  const given = normaliseAnswers({
    type: flags.type,
    name: flags.name,
    shortName: flags.shortName,
    description: flags.description,
    version: flags.version,
  }) as Partial<Record<AnswerField, string>>;
  refuse(checkAnswers(given), (field) => `${FLAGS[field]}: `);
  const toolkit = flags.pipelineTool === undefined ? undefined : toolkitSourceFrom(flags.pipelineTool, io.cwd);

  const interactive = io.stdinIsTTY && !flags.yes;
  if (!interactive && !flags.yes) refuseMissing(dir, given);

  const prompter = interactive ? new Prompter(io, colour) : undefined;
  let directory: string;
  let answers: InitAnswers;
  // The template has a default that every earlier use of init relied on, so it is never a missing flag.
  let template = (flags.template as TemplateName | undefined) ?? (prompter ? undefined : DEFAULT_TEMPLATE);
  try {
    if (dir !== undefined || prompter === undefined) {
      directory = path.resolve(io.cwd, dir ?? DEFAULT_FOLDER);
      await assertTargetUsable(directory, flags.force);
    } else {
      directory = await askFolder(prompter, io.cwd, flags.force);
    }
    const folderName = path.basename(directory);
    if (prompter) template ??= await askTemplate(prompter);
    answers = prompter ? await askAnswers(prompter, given, folderName) : completeAnswers(given as Partial<InitAnswers>, folderName);
  } finally {
    prompter?.close();
  }

  const result = await initProject({ directory, answers, force: flags.force, template: template ?? DEFAULT_TEMPLATE, ...(toolkit ? { toolkit } : {}) });
  io.stdout(summary(result, await readProjectNow(result), io.cwd, colour));
  return EXIT.ok;
}

function refuse(problems: readonly AnswerProblem[], prefix: (field: AnswerField) => string): void {
  if (problems.length > 0) throw new UsageError(problems.map((p) => prefix(p.field) + describeAnswerProblem(p)).join(' '));
}

function refuseMissing(dir: string | undefined, given: Partial<Record<AnswerField, string>>): void {
  const missing = [...(dir === undefined ? ['the folder (pipeline-tool init <dir>)'] : []), ...ANSWER_FIELDS.filter((f) => given[f] === undefined).map((f) => FLAGS[f])];
  if (missing.length === 0) return;
  const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  throw new UsageError(
    `there is no terminal to ask on, and ${list} ${missing.length === 1 ? 'is' : 'are'} missing. Give ${missing.length === 1 ? 'it' : 'them'}, or add --yes to use the defaults.`,
  );
}

async function askFolder(prompter: Prompter, cwd: string, force: boolean): Promise<string> {
  for (;;) {
    const answer = await prompter.ask('Folder for the new project', DEFAULT_FOLDER);
    const directory = path.resolve(cwd, answer);
    try {
      await assertTargetUsable(directory, force);
      return directory;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      prompter.complain(error.message);
    }
  }
}

async function askAnswers(prompter: Prompter, given: Partial<Record<AnswerField, string>>, folderName: string): Promise<InitAnswers> {
  const answers: Partial<Record<AnswerField, string>> = { ...given };
  for (const field of ANSWER_FIELDS) {
    if (given[field] !== undefined) continue;
    answers[field] = field === 'type' ? await askType(prompter) : await askText(prompter, field, answers, folderName);
  }
  // Flags and answers can still clash (a --short-name longer than the name typed in); say so
  // before anything is written.
  refuse(checkAnswers(answers), (field) => (given[field] !== undefined ? `${FLAGS[field]}: ` : ''));
  return answers as InitAnswers;
}

async function askTemplate(prompter: Prompter): Promise<TemplateName> {
  const width = Math.max(...TEMPLATE_NAMES.map((name) => name.length));
  prompter.say(`Built with:\n${TEMPLATE_NAMES.map((name, i) => `  ${i + 1}  ${name.padEnd(width)}   ${TEMPLATE_SUMMARIES[name]}\n`).join('')}`);
  const numbers = TEMPLATE_NAMES.map((_, i) => String(i + 1));
  const either = (items: readonly string[]) => `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
  const fallback = String(TEMPLATE_NAMES.indexOf(DEFAULT_TEMPLATE) + 1);
  for (;;) {
    const answer = (await prompter.ask(`Template (${either(numbers)})`, fallback)).toLowerCase();
    const template = TEMPLATE_NAMES[Number(answer) - 1] ?? TEMPLATE_NAMES.find((name) => name === answer);
    if (template) return template;
    prompter.complain(`answer ${either(TEMPLATE_NAMES.map((name, i) => `${i + 1} for ${name}`))}, not "${answer}".`);
  }
}

async function askType(prompter: Prompter): Promise<ToolType> {
  prompter.say(
    'Type of tool:\n' +
      '  1  standalone          a sidebar panel opened from the tool launcher\n' +
      '  2  quoting_extension   opened inside a quote; can add lines to that quote\n',
  );
  for (;;) {
    const answer = (await prompter.ask('Type (1 or 2)', '1')).toLowerCase();
    const type = answer === '1' ? 'standalone' : answer === '2' ? 'quoting_extension' : TOOL_TYPES.find((t) => t === answer);
    if (type) return type;
    prompter.complain(`answer 1 for standalone or 2 for quoting_extension, not "${answer}".`);
  }
}

async function askText(
  prompter: Prompter,
  field: Exclude<AnswerField, 'type'>,
  earlier: Partial<Record<AnswerField, string>>,
  folderName: string,
): Promise<string> {
  for (;;) {
    const answer = await prompter.ask(QUESTIONS[field], defaultAnswer(field, earlier as Partial<InitAnswers>, folderName));
    const problems = checkAnswers({ ...earlier, [field]: answer }).filter((p) => p.field === field);
    if (problems.length === 0) return answer;
    for (const problem of problems) prompter.complain(describeAnswerProblem(problem));
  }
}

/**
 * Questions on io.stdout, answers from io.stdin one line at a time. The line iterator buffers,
 * so answers typed (or piped) ahead of their question are not lost.
 */
class Prompter {
  private readonly readline: Interface;
  private readonly lines: AsyncIterator<string>;

  constructor(
    private readonly io: CliIo,
    private readonly colour: ChalkInstance,
  ) {
    this.readline = createInterface({ input: io.stdin, terminal: false, crlfDelay: Infinity });
    this.lines = this.readline[Symbol.asyncIterator]();
  }

  async ask(question: string, fallback: string): Promise<string> {
    this.io.stdout(`${this.colour.cyan('?')} ${question} ${this.colour.dim(`(${fallback})`)}: `);
    const next = await this.lines.next();
    if (next.done) throw new UsageError('the input ended before every question was answered; nothing was written.');
    const answer = next.value.trim();
    return answer === '' ? fallback : answer;
  }

  say(text: string): void {
    this.io.stdout(text);
  }

  complain(text: string): void {
    this.io.stdout(`  ${this.colour.red(text.charAt(0).toUpperCase() + text.slice(1))}\n`);
  }

  close(): void {
    this.readline.close();
  }
}

/** The project as it stands after init: what its files say, whichever of them init wrote. */
interface ProjectNow {
  name: string;
  type: string;
  /** The tool folder and the zip pack will write, relative to the project. */
  source: string;
  zip: string;
  scripts: Record<string, string>;
  /** The manifest.json init found there and kept, which then decides what the tool is. */
  manifestKept?: string;
}

/**
 * Reads back the project file, the manifest and package.json. With --force some may have been
 * there already and kept, and then they, not the answers, decide what the tool is and what
 * pack will write.
 */
async function readProjectNow(result: InitResult): Promise<ProjectNow> {
  const { directory, answers } = result;
  const json = async (file: string): Promise<Record<string, unknown> | undefined> => {
    try {
      const value: unknown = JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const config = await json(path.join(directory, CONFIG_FILE));
  const source = text(config?.['source']) ?? (config ? '.' : result.toolFolder);
  const out = text(config?.['out']) ?? (config ? '.' : result.outFolder);
  // A framework project keeps its manifest in public/, which Vite copies into the build (source).
  const manifestAt = [path.posix.join(source, MANIFEST_PATH), path.posix.join('public', MANIFEST_PATH)];
  let manifest: Record<string, unknown> | undefined;
  let manifestFile: string | undefined;
  for (const candidate of manifestAt) {
    manifest = await json(path.join(directory, candidate));
    if (manifest) {
      manifestFile = candidate;
      break;
    }
  }
  const packageJson = result.written.includes('package.json') ? undefined : await json(path.join(directory, 'package.json'));
  const scripts = result.written.includes('package.json')
    ? result.scripts
    : Object.fromEntries(Object.entries((packageJson?.['scripts'] as Record<string, unknown> | undefined) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const zipName = defaultZipName(text(manifest?.['shortName']) ?? answers.shortName, text(manifest?.['version']) ?? answers.version, path.basename(path.join(directory, source)));
  return {
    ...(manifestFile !== undefined && result.skipped.includes(manifestFile) ? { manifestKept: manifestFile } : {}),
    name: text(manifest?.['name']) ?? answers.name,
    type: text(manifest?.['type']) ?? answers.type,
    source,
    zip: path.posix.join(out.split(path.sep).join('/'), zipName),
    scripts,
  };
}

function summary(result: InitResult, now: ProjectNow, cwd: string, colour: ChalkInstance): string {
  const relative = path.relative(cwd, result.directory);
  const where = relative === '' ? 'the current folder' : relative;
  const { written, skipped } = result;
  const built = result.template !== 'vanilla';
  const framework = result.template === 'react' ? 'React' : 'Vue';
  const lines = [''];
  if (skipped.length === 0) {
    lines.push(`${colour.green('Created')} ${now.name}, a ${now.type} tool${built ? ` built with ${framework} and Vite` : ''}, in ${where} (${written.length} files).`);
  } else if (written.length === 0) {
    lines.push(
      `${colour.yellow('Nothing was written')}: ${where} already holds every file of the project (${skipped.length} files), and each was left as it was.`,
      `The tool there is ${now.name}, a ${now.type} tool.`,
    );
  } else {
    lines.push(`${colour.green('Added')} ${written.length} ${written.length === 1 ? 'file' : 'files'} to ${where}: ${written.join(', ')}.`);
    lines.push('', 'These already existed and were left as they were:', ...skipped.map((file) => `  ${file}`));
    if (now.manifestKept !== undefined) lines.push('', `The kept ${now.manifestKept} decides what the tool is: ${now.name}, a ${now.type} tool.`);
  }
  const toolkit = toolkitNote(result);
  if (toolkit) lines.push('', toolkit);
  const steps: Array<[string, string]> = [];
  if (relative !== '') steps.push([`cd ${shellQuote(relative)}`, '']);
  // The project's own scripts where it has them: they are what its README and CI use.
  const { scripts } = now;
  const has = (name: string) => scripts[name] !== undefined;
  steps.push(['npm install', built ? `installs ${framework}, Vite, TypeScript and pipeline-tool for the project` : 'installs pipeline-tool and TypeScript for the project']);
  steps.push(
    built
      ? ['npm run dev', 'starts Vite with the app inside an emulated Pipeline host; open the address it prints']
      : [has('dev') ? 'npm run dev' : 'npx pipeline-tool dev', `runs the tool (${now.source}/, as ${CONFIG_FILE} says) in an emulated Pipeline host`],
  );
  if (has('test')) steps.push(['npm test', "runs the tool's own tests against the same emulated host"]);
  if (built && has('build')) steps.push(['npm run build', `builds the tool into ${now.source}/, checked as it is built`]);
  steps.push([has('validate') ? 'npm run validate' : `npx pipeline-tool validate`, `checks ${now.source}/ against every marketplace rule, as the project's CI does`]);
  steps.push(
    [has('pack') ? 'npm run pack' : 'npx pipeline-tool pack', `${built ? `builds ${now.source}/, then packs it into` : 'builds'} ${now.zip} to upload, checked against the marketplace rules`],
    [`npx pipeline-tool version patch`, 'raises the version before the next release'],
  );
  const width = Math.max(...steps.map(([command]) => command.length));
  lines.push('', 'Next steps:', ...steps.map(([command, why]) => `  ${colour.cyan(command.padEnd(width))}${why ? `   ${colour.dim(why)}` : ''}`.trimEnd()));
  lines.push('', `The project's README.md explains the files and the patterns the tool follows.`, '');
  return lines.join('\n');
}

/** Says where the project installs pipeline-tool from, unless that is simply the registry. */
function toolkitNote(result: InitResult): string | undefined {
  const { toolkit } = result;
  if (!result.written.includes('package.json')) return undefined;
  if (toolkit.running && toolkit.kind === 'registry') return undefined;
  if (toolkit.vendor) {
    const origin = toolkit.running
      ? `This pipeline-tool was not installed from the npm registry, so init packed it into ${toolkit.vendor.path}`
      : `init copied the tarball given with --pipeline-tool into ${toolkit.vendor.path}`;
    return (
      `${origin}, and the project's package.json installs it from there (${toolkit.spec}).\n` +
      'Commit that file with the project: CI and every copy of the project install from it, on any machine.\n' +
      `Once pipeline-tool is on the npm registry, switch with \`${SWITCH_TO_REGISTRY}\` and delete ${VENDOR_FOLDER}/` +
      `${toolkit.running ? ' (or choose another source now with --pipeline-tool <spec>)' : ''}.`
    );
  }
  // npm keeps a local path in package-lock.json relative to the project: a copy elsewhere must
  // relink with `npm install` before `npm ci` works there.
  const local =
    ' CI elsewhere cannot reach that path: depend on a published version, a tarball (--pipeline-tool ./pipeline-tool-<version>.tgz) or a git URL before pushing.' +
    ' A copy of the project in another folder needs `npm install` (not `npm ci`) once, to relink it.';
  return `The project's package.json installs pipeline-tool from ${toolkit.spec} (--pipeline-tool).${toolkit.kind === 'local' ? local : ''}`;
}

/** Quotes a path for a POSIX shell when it holds anything beyond plain path characters. */
function shellQuote(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
