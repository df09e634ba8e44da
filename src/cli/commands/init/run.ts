import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { Chalk, type ChalkInstance } from 'chalk';
import {
  ANSWER_FIELDS,
  DEFAULT_FOLDER,
  DEFAULT_TEMPLATE,
  TOOL_TYPES,
  assertTargetUsable,
  checkAnswers,
  completeAnswers,
  defaultAnswer,
  describeAnswerProblem,
  initProject,
  normaliseAnswers,
  toolkitSourceFrom,
  type AnswerField,
  type AnswerProblem,
  type InitAnswers,
  type InitResult,
  type TemplateName,
  type ToolType,
} from '../../../core/init/index.js';
import { CONFIG_FILE } from '../../../core/config/file-name.js';
import { defaultZipName } from '../../../core/pack/destination.js';
import { UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { useColour, type CliIo } from '../../io.js';
import type { InitFlags } from './command.js';

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
  io.stdout(summary(result, io.cwd, colour));
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
  prompter.say(
    'Built with:\n' +
      '  1  vanilla   HTML, CSS and JavaScript, with no build step\n' +
      '  2  react     React and TypeScript, built with Vite\n' +
      '  3  vue       Vue 3 and TypeScript (single-file components), built with Vite\n',
  );
  const choices: readonly TemplateName[] = ['vanilla', 'react', 'vue'];
  for (;;) {
    const answer = (await prompter.ask('Template (1, 2 or 3)', '1')).toLowerCase();
    const template = choices[Number(answer) - 1] ?? choices.find((name) => name === answer);
    if (template) return template;
    prompter.complain(`answer 1 for vanilla, 2 for react or 3 for vue, not "${answer}".`);
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

function summary(result: InitResult, cwd: string, colour: ChalkInstance): string {
  const relative = path.relative(cwd, result.directory);
  const where = relative === '' ? 'the current folder' : relative;
  const tool = result.toolFolder;
  const built = result.template !== 'vanilla';
  const zipName = defaultZipName(result.answers.shortName, result.answers.version, tool);
  const lines = [
    '',
    `${colour.green('Created')} ${result.answers.name}, a ${result.answers.type} tool${built ? ` built with ${result.template === 'react' ? 'React' : 'Vue'} and Vite` : ''}, in ${where} (${result.written.length} files).`,
  ];
  if (result.skipped.length > 0) {
    lines.push('', 'These already existed and were left as they were:', ...result.skipped.map((file) => `  ${file}`));
  }
  const toolkit = toolkitNote(result);
  if (toolkit) lines.push('', toolkit);
  const steps: Array<[string, string]> = [];
  if (relative !== '') steps.push([`cd ${shellQuote(relative)}`, '']);
  // The project's own scripts where it has them: they are what its README and CI use.
  const { scripts } = result;
  steps.push(
    ['npm install', built ? `installs ${result.template === 'react' ? 'React' : 'Vue'}, Vite, TypeScript and pipeline-tool for the project` : 'installs pipeline-tool and TypeScript for the project'],
    built
      ? ['npm run dev', 'starts Vite with the app inside an emulated Pipeline host; open the address it prints']
      : [scripts['dev'] !== undefined ? 'npm run dev' : 'npx pipeline-tool dev', `runs the tool (${tool}/, as ${CONFIG_FILE} says) in an emulated Pipeline host`],
    [
      scripts['pack'] !== undefined ? 'npm run pack' : 'npx pipeline-tool pack',
      `${built ? `builds ${tool}/, then packs it into` : 'builds'} ${result.outFolder}/${zipName} to upload, checked against the marketplace rules`,
    ],
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
  if (toolkit.running) {
    return (
      `This pipeline-tool was not installed from the npm registry, so the project's package.json installs it from this copy: ${toolkit.spec}\n` +
      '(choose another source with --pipeline-tool <spec>). CI elsewhere cannot reach that path: depend on a published version or a git URL before pushing.'
    );
  }
  const local = toolkit.kind === 'local' ? ' CI elsewhere cannot reach that path: depend on a published version or a git URL before pushing.' : '';
  return `The project's package.json installs pipeline-tool from ${toolkit.spec} (--pipeline-tool).${local}`;
}

/** Quotes a path for a POSIX shell when it holds anything beyond plain path characters. */
function shellQuote(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
