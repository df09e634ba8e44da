import { UsageError } from '../errors.js';
import { CONFIG_FILE, CONFIG_SCHEMA_REFERENCE } from './file-name.js';
import { pointerToken, positionFinder, scanJson } from '../json/scan-json.js';
import { nearestName } from '../nearest.js';
import { ruleSettingProblem, type RuleSetting } from '../validate.js';
import { globProblem } from './globs.js';
import type { RuleOverride } from './settings.js';
import { placeText } from '../place-text.js';

export { CONFIG_FILE, CONFIG_SCHEMA_REFERENCE };


/** Larger than any real project file; the bound keeps a stray huge file from being read whole. */
export const CONFIG_MAX_BYTES = 1_000_000;

/** What the project file says, checked. Paths are as written, relative to the file's folder. */
export interface ProjectConfig {
  /** The tool folder: what `dev`, `validate` and `pack` act on when given no path. */
  source?: string;
  /** The folder `pack` writes the zip into when given no `--out`. */
  out?: string;
  rules: Record<string, RuleSetting>;
  overrides: RuleOverride[];
}

/** A mistake in the project file: the message starts with the file, line and column. */
export class ConfigError extends UsageError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${placeText(file, line, column)}: ${reason}`);
  }
}

const TOP_KEYS = ['$schema', 'source', 'out', 'rules', 'overrides'] as const;
const OVERRIDE_KEYS = ['files', 'rules'] as const;

/**
 * Parses and checks the text of a project file. `file` is how messages name it. Pure: the first
 * mistake throws a ConfigError pointing at the place (the value, for a wrong value; the key's
 * value, for an unknown key). Nothing outside the documented shape is accepted, so a typo never
 * silently does nothing.
 */
export function parseProjectConfig(text: string, file: string): ProjectConfig {
  // A byte-order mark is no character an editor shows, so columns count from after it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const at = positionFinder(body);
  const fail = (offset: number, reason: string): never => {
    const { line, column } = at(offset);
    throw new ConfigError(file, line, column, reason);
  };
  const scan = scanJson(body);
  if (!scan.ok) fail(scan.offset, scan.tooDeep ? `${scan.message}.` : `not valid JSON: ${scan.message}.`);
  const { offsets, duplicates } = scan as Extract<typeof scan, { ok: true }>;
  const place = (pointer: string) => offsets.get(pointer) ?? 0;
  const name = (pointer: string) => pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')).join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  if (duplicates.length > 0) fail(duplicates[0]!.offset, `"${name(duplicates[0]!.pointer)}" appears twice; keep one.`);

  const value: unknown = JSON.parse(body);
  if (!isObject(value)) fail(place(''), 'the project file must hold a JSON object, such as { "source": "src" }.');
  const top = value as Record<string, unknown>;
  checkKeys(top, TOP_KEYS, '', place, fail);

  const config: ProjectConfig = { rules: {}, overrides: [] };
  if (top['$schema'] !== undefined && typeof top['$schema'] !== 'string') fail(place('/$schema'), '"$schema" must be a string: the path or address of config.schema.json.');
  for (const key of ['source', 'out'] as const) {
    if (top[key] === undefined) continue;
    const problem = folderProblem(top[key]);
    if (problem) fail(place(`/${key}`), `"${key}" ${problem}.`);
    // A value of slashes alone is refused above as absolute, so something is left.
    config[key] = (top[key] as string).replace(/\/+$/, '');
  }
  // Without "source" the tool is the file's own folder, so any "out" would lie inside it.
  if (config.out !== undefined && inside(config.out, config.source ?? '.')) {
    const tool = config.source === undefined ? 'the tool folder (this file\'s folder, as there is no "source")' : `"source" (${config.source})`;
    fail(place('/out'), `"out" (${config.out}) is inside ${tool}: the next pack would ship the zip. Choose a folder outside the tool, such as dist.`);
  }
  if (top['rules'] !== undefined) config.rules = checkRules(top['rules'], '/rules', place, fail);
  if (top['overrides'] !== undefined) {
    const overrides = top['overrides'];
    if (!Array.isArray(overrides)) fail(place('/overrides'), '"overrides" must be a list: [{ "files": ["vendor/**"], "rules": { … } }].');
    (overrides as unknown[]).forEach((item, index) => {
      const pointer = `/overrides/${index}`;
      if (!isObject(item)) fail(place(pointer), `overrides[${index}] must be an object with "files" and "rules".`);
      const override = item as Record<string, unknown>;
      checkKeys(override, OVERRIDE_KEYS, pointer, place, fail);
      const files = override['files'];
      if (!Array.isArray(files) || files.length === 0) {
        fail(place(files === undefined ? pointer : `${pointer}/files`), `overrides[${index}].files must list at least one pattern, such as ["vendor/**"].`);
      }
      (files as unknown[]).forEach((pattern, p) => {
        const problem = globProblem(pattern);
        if (problem) fail(place(`${pointer}/files/${p}`), `overrides[${index}].files[${p}] is not a usable pattern: ${problem}.`);
      });
      // A negation only takes files back out of what an earlier pattern matched: alone, a list
      // of them can never match a file.
      if ((files as string[]).every((pattern) => pattern.startsWith('!'))) {
        fail(
          place(`${pointer}/files`),
          `overrides[${index}].files holds only negations, which take files back out of a match and so match nothing alone; put the pattern they narrow first, such as ["vendor/**", "${(files as string[])[0]}"].`,
        );
      }
      if (override['rules'] === undefined) fail(place(pointer), `overrides[${index}] has no "rules"; say which rules change for these files.`);
      config.overrides.push({ files: files as string[], rules: checkRules(override['rules'], `${pointer}/rules`, place, fail) });
    });
  }
  return config;
}

function checkKeys(
  object: Record<string, unknown>,
  known: readonly string[],
  pointer: string,
  place: (pointer: string) => number,
  fail: (offset: number, reason: string) => never,
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = nearestName(key, known);
    const where = pointer === '' ? 'the project file' : pointer.slice(1).replace(/\/(\d+)/g, '[$1]');
    fail(
      place(`${pointer}/${pointerToken(key)}`),
      `unknown key "${key}" in ${where}${suggestion ? `; did you mean "${suggestion}"?` : '.'} It may hold ${known.map((k) => `"${k}"`).join(', ')}, nothing else.`,
    );
  }
}

function checkRules(value: unknown, pointer: string, place: (pointer: string) => number, fail: (offset: number, reason: string) => never): Record<string, RuleSetting> {
  if (!isObject(value)) fail(place(pointer), `"${pointer.slice(1).replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}" must be an object of rule ids and settings, such as { "unsafe-html": "off" }.`);
  const rules: Record<string, RuleSetting> = {};
  for (const [id, setting] of Object.entries(value as Record<string, unknown>)) {
    const problem = ruleSettingProblem(id, setting);
    if (problem) fail(place(`${pointer}/${pointerToken(id)}`), problem);
    rules[id] = setting as RuleSetting;
  }
  return rules;
}

/** A folder path must stay inside the project, written the same way on every system. */
function folderProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'must be a folder path relative to this file, such as "src"';
  if (value.includes('\\')) return 'must use / between folders, not \\';
  if (value.startsWith('/') || /^[A-Za-z]:/.test(value)) return 'must be relative to this file, not absolute';
  if (value.split('/').includes('..')) return 'must stay inside the project: it cannot climb out with ..';
  if (/\p{Cc}/u.test(value)) return 'cannot contain control characters';
  return undefined;
}

/** Whether relative folder `child` is `parent` or lies inside it (both as written in the file). */
function inside(child: string, parent: string): boolean {
  const parts = (p: string) => p.split('/').filter((part) => part !== '' && part !== '.');
  const c = parts(child);
  const p = parts(parent);
  // A shorter child fails on its first missing part, so no length test is needed.
  return p.every((part, i) => c[i] === part);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
