import { lstat, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { checkAnswers, describeAnswerProblem, normaliseAnswers, type AnswerProblem, type InitAnswers } from './answers.js';
import { readBridgeTypes, readTemplate, readToolkitVersion } from './assets.js';
import { CONFIG_FILE } from '../config/file-name.js';
import { DEFAULT_TEMPLATE, OUTPUT_FOLDER, packageNameFor, planProject, TEMPLATE_NAMES, TOOL_FOLDER, type PlannedFile, type TemplateName } from './plan.js';
import { runningToolkitSource, type ToolkitSource } from './toolkit-source.js';
import { readVendoredToolkit } from './vendor.js';

export interface InitOptions {
  /** Folder to create the project in; it is created when missing. */
  directory: string;
  answers: InitAnswers;
  /** Accept a folder that is not empty. Existing files are still never overwritten. */
  force?: boolean;
  /** Where the project gets pipeline-tool from; default: the running copy (see runningToolkitSource). */
  toolkit?: ToolkitSource;
  /** What the tool is built with: `vanilla` (the default), `react` or `vue`. */
  template?: TemplateName;
}

export interface InitResult {
  /** Absolute path of the project folder. */
  directory: string;
  answers: InitAnswers;
  packageName: string;
  /** The template the project was made from. */
  template: TemplateName;
  /** Folder inside the project holding what ships (`src`, or the build's `dist`): pass it to `dev`, `pack` and `validate`. */
  toolFolder: string;
  /** Folder inside the project that `pack` writes zips to. */
  outFolder: string;
  /** Project-relative paths written, in order. */
  written: string[];
  /** Project-relative paths left alone because something already existed there (only with `force`). */
  skipped: string[];
  /** The devDependency on pipeline-tool written into package.json. */
  toolkit: ToolkitSource;
  /** The scripts of the project's package.json as written (empty when it was skipped). */
  scripts: Record<string, string>;
}

/** The answers cannot make a tool that passes validate; `problems` says why, field by field. */
export class InitAnswersError extends UsageError {
  readonly problems: readonly AnswerProblem[];

  constructor(problems: readonly AnswerProblem[]) {
    super(problems.map(describeAnswerProblem).join(' '));
    this.problems = problems;
  }
}

export type TargetState = 'missing' | 'empty' | 'not-empty';

/** A freshly cloned empty repository holds only .git; that still counts as an empty folder. */
const IGNORED_WHEN_EMPTY = new Set(['.git']);

export async function inspectTarget(directory: string): Promise<TargetState> {
  const info = await stat(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot use ${directory}: ${error.message}`);
  });
  if (info === undefined) return 'missing';
  if (!info.isDirectory()) throw new UsageError(`${directory} is a file, not a folder. Name a new or empty folder for the project.`);
  const children = await readdir(directory);
  return children.some((name) => !IGNORED_WHEN_EMPTY.has(name)) ? 'not-empty' : 'empty';
}

/** Refuses a folder that is not empty, unless `force` allows adding to it. */
export async function assertTargetUsable(directory: string, force: boolean): Promise<TargetState> {
  const state = await inspectTarget(directory);
  if (state === 'not-empty' && !force) {
    throw new UsageError(
      `${directory} is not empty. Choose a new or empty folder, or add --force to add the project's files to it (existing files are kept, never overwritten).`,
    );
  }
  return state;
}

/**
 * Creates a new tool project: checks the answers and the folder before writing anything, then
 * writes the template's files. Never overwrites: with `force`, files that already exist are
 * listed in `skipped` and left as they were.
 */
export async function initProject(options: InitOptions): Promise<InitResult> {
  const answers = normaliseAnswers(options.answers);
  const problems = checkAnswers(answers);
  if (problems.length > 0) throw new InitAnswersError(problems);
  const templateName = options.template ?? DEFAULT_TEMPLATE;
  if (!TEMPLATE_NAMES.includes(templateName)) throw new UsageError(`the template must be ${TEMPLATE_NAMES.join(', ').replace(/, (?=[^,]*$)/, ' or ')}, not "${String(templateName)}".`);
  const directory = path.resolve(options.directory);
  await assertTargetUsable(directory, options.force ?? false);

  // Only plain JavaScript needs the bridge's types copied in; TypeScript imports pipeline-tool/bridge.
  const [template, bridgeTypes] = await Promise.all([readTemplate(answers.type, templateName), templateName === 'vanilla' ? readBridgeTypes() : undefined]);
  const packageName = packageNameFor(path.basename(directory));
  const toolkit = options.toolkit ?? runningToolkitSource();
  const files = planProject({ answers, template, ...(bridgeTypes === undefined ? {} : { bridgeTypes }), toolkitVersion: readToolkitVersion(), toolkitSpec: toolkit.spec, packageName });
  // The tarball package.json names by a relative path: read (or packed) before anything is written.
  if (toolkit.vendor) {
    files.push({ path: toolkit.vendor.path, contents: await readVendoredToolkit(toolkit.vendor) });
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  const { written, skipped } = await writeFiles(directory, files);
  const packageFile = written.includes('package.json') ? files.find((file) => file.path === 'package.json') : undefined;
  const scripts = packageFile ? ((JSON.parse(packageFile.contents.toString('utf8')) as { scripts?: Record<string, string> }).scripts ?? {}) : {};
  const config = JSON.parse(files.find((file) => file.path === CONFIG_FILE)?.contents.toString('utf8') ?? '{}') as { source?: string; out?: string };
  return { directory, answers, packageName, template: templateName, toolFolder: config.source ?? TOOL_FOLDER, outFolder: config.out ?? OUTPUT_FOLDER, written, skipped, toolkit, scripts };
}

async function writeFiles(root: string, files: readonly PlannedFile[]): Promise<{ written: string[]; skipped: string[] }> {
  const written: string[] = [];
  const skipped: string[] = [];
  await mkdir(root, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot create ${root}: ${error.message}`);
  });
  for (const file of files) {
    const target = path.join(root, ...file.path.split('/'));
    try {
      if (!(await makeFolders(root, file.path))) {
        skipped.push(file.path);
        continue;
      }
      // 'wx' fails when anything exists at the path, a link included, so nothing is overwritten
      // and nothing is written through a link.
      await writeFile(target, file.contents, { flag: 'wx' });
      written.push(file.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') skipped.push(file.path);
      else throw new UsageError(`cannot write ${target}: ${(error as Error).message}`);
    }
  }
  return { written, skipped };
}

/**
 * Creates the folders above a project file. Returns false when one of them exists as something
 * other than a folder (a file, or a link that could lead outside the project).
 */
async function makeFolders(root: string, relative: string): Promise<boolean> {
  let current = root;
  for (const segment of relative.split('/').slice(0, -1)) {
    current = path.join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (info === undefined) await mkdir(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    else if (!info.isDirectory()) return false;
  }
  return true;
}
