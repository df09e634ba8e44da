import { CONFIG_FILE, CONFIG_SCHEMA_REFERENCE } from '../config/file-name.js';
import type { InitAnswers } from './answers.js';

/** The folder inside a project that holds exactly the files that ship in the bundle (a project of the vanilla template). */
export const TOOL_FOLDER = 'src';

/**
 * What a tool is built with: plain HTML, CSS and JavaScript with no build step (`vanilla`), or
 * React or Vue with TypeScript, built by Vite with pipeline-tool/vite.
 */
export type TemplateName = 'vanilla' | 'react' | 'vue';
export const TEMPLATE_NAMES: readonly TemplateName[] = ['vanilla', 'react', 'vue'];

/** What each template is built with, in a few words, as `init` offers them. */
export const TEMPLATE_SUMMARIES: Readonly<Record<TemplateName, string>> = {
  vanilla: 'HTML, CSS and JavaScript, with no build step',
  react: 'React and TypeScript, built with Vite',
  vue: 'Vue 3 and TypeScript (single-file components), built with Vite',
};
export const DEFAULT_TEMPLATE: TemplateName = 'vanilla';

/** Where a template keeps manifest.json: the tool folder itself, or Vite's public/, which the build copies. */
const MANIFEST_FILES = [`${TOOL_FOLDER}/manifest.json`, 'public/manifest.json'];

/** A file of a template, as stored in the package. */
export interface TemplateFile {
  /** Slash-separated path inside the template folder. */
  path: string;
  contents: Buffer;
}

/** A file `init` will write, with its path inside the new project. */
export interface PlannedFile {
  path: string;
  contents: Buffer;
}

export interface PlanInput {
  answers: InitAnswers;
  /** The template's files (see `readTemplate`). */
  template: readonly TemplateFile[];
  /**
   * Text of the bridge declarations, copied into the project as pipeline.d.ts for its plain
   * JavaScript; left out for a TypeScript template, which imports `pipeline-tool/bridge`.
   */
  bridgeTypes?: string;
  /** Version of pipeline-tool itself, named in pipeline.d.ts. */
  toolkitVersion: string;
  /** The project's devDependency on pipeline-tool (see toolkit-source.ts); default `^toolkitVersion`. */
  toolkitSpec?: string;
  /** npm package name for the project's package.json (see {@link packageNameFor}). */
  packageName: string;
}

/**
 * npm would rename `.gitignore` when publishing our package, and a `.github` folder inside this
 * repository would look like its own CI; so templates store them under these names.
 */
const STORED_NAMES: Readonly<Record<string, string>> = { _gitignore: '.gitignore', _github: '.github' };

/** Where the zip goes: outside the tool folder, and ignored by the project's .gitignore. */
export const OUTPUT_FOLDER = 'dist';

export const MANIFEST_SCHEMA_REFERENCE = '../node_modules/pipeline-tool/schemas/manifest.schema.json';

/**
 * Turns answers and a template into the files of a new project. Pure: reads nothing, writes
 * nothing. Values land in JSON through JSON.stringify and in HTML and Markdown escaped, so any
 * name a person types yields valid, safe files.
 */
export function planProject(input: PlanInput): PlannedFile[] {
  const { answers } = input;
  const values: Record<string, string> = {
    name: answers.name,
    shortName: answers.shortName,
    description: answers.description,
    type: answers.type,
    version: answers.version,
  };
  const planned: PlannedFile[] = input.template.map((file) => {
    const path = storedToProjectPath(file.path);
    return { path, contents: renderFile(path, file.contents, values, input) };
  });
  if (input.bridgeTypes !== undefined) planned.push({ path: 'pipeline.d.ts', contents: Buffer.from(bridgeTypesFile(input.bridgeTypes, input.toolkitVersion), 'utf8') });
  // The project file lets every command find the tool from anywhere in the project. A template
  // that builds its tool brings its own, naming the build's folder.
  if (!planned.some((file) => file.path === CONFIG_FILE)) {
    planned.push({ path: CONFIG_FILE, contents: jsonFile({ $schema: CONFIG_SCHEMA_REFERENCE, source: TOOL_FOLDER, out: OUTPUT_FOLDER }) });
  }
  return planned.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function storedToProjectPath(stored: string): string {
  const [first, ...rest] = stored.split('/');
  return [STORED_NAMES[first ?? ''] ?? first, ...rest].join('/');
}

function renderFile(path: string, contents: Buffer, values: Record<string, string>, input: PlanInput): Buffer {
  if (MANIFEST_FILES.includes(path)) return jsonFile(rewriteManifest(parseJson(path, contents), input.answers));
  if (path === 'package.json') return jsonFile(rewritePackageJson(parseJson(path, contents), input));
  if (path.endsWith('.html')) return Buffer.from(fillPlaceholders(path, contents.toString('utf8'), values, escapeHtml), 'utf8');
  if (path.endsWith('.md')) return Buffer.from(fillPlaceholders(path, contents.toString('utf8'), values, escapeMarkdown), 'utf8');
  return contents;
}

function parseJson(path: string, contents: Buffer): Record<string, unknown> {
  const value: unknown = JSON.parse(contents.toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`template file ${path} is not a JSON object`);
  return value as Record<string, unknown>;
}

function jsonFile(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

/** Keeps the template's key order and its entry; the answers replace the rest. */
function rewriteManifest(template: Record<string, unknown>, answers: InitAnswers): Record<string, unknown> {
  return {
    ...template,
    $schema: MANIFEST_SCHEMA_REFERENCE,
    name: answers.name,
    shortName: answers.shortName,
    type: answers.type,
    version: answers.version,
    description: answers.description,
  };
}

function rewritePackageJson(template: Record<string, unknown>, input: PlanInput): Record<string, unknown> {
  const devDependencies = { ...(template['devDependencies'] as Record<string, string> | undefined) };
  devDependencies['pipeline-tool'] = input.toolkitSpec ?? `^${input.toolkitVersion}`;
  // The project's version moves with the tool's: `pipeline-tool version` raises both.
  const own = { name: input.packageName, version: input.answers.version };
  // Name and version lead, as npm writes them; the template's own values are replaced in place.
  return Object.assign({ ...own }, template, own, { devDependencies }) as Record<string, unknown>;
}

/** Replaces `{{field}}` in one pass, so a value that itself contains braces is never expanded. */
function fillPlaceholders(path: string, text: string, values: Record<string, string>, escape: (value: string) => string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template file ${path} uses an unknown placeholder {{${key}}}`);
    return escape(value);
  });
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

/** Markdown renders inline HTML and emphasis, so those characters are escaped. */
export function escapeMarkdown(value: string): string {
  return value.replace(/[\\`*_[\]#|]/g, (c) => `\\${c}`).replace(/[&<>]/g, (c) => HTML_ENTITIES[c] ?? c);
}

function bridgeTypesFile(declarations: string, toolkitVersion: string): string {
  return (
    `// Types of window.pipeline, the Pipeline bridge, copied from pipeline-tool ${toolkitVersion} by \`pipeline-tool init\`.\n` +
    '// Editors and `npm run typecheck` check the JavaScript in src/ against it. After upgrading pipeline-tool,\n' +
    '// refresh it from node_modules/pipeline-tool/dist/bridge/types.d.ts.\n\n' +
    declarations
  );
}

/** A valid npm package name from a folder name: lower case, URL-safe, no leading dot or underscore. */
export function packageNameFor(folderName: string): string {
  const name = folderName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[-._~]+|[-._~]+$/g, '')
    .slice(0, 214);
  return name === '' ? 'pipeline-tool-project' : name;
}
