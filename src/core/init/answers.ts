import type { BundleSource } from '../shipment/source.js';
import { parseManifest } from '../manifest/read-manifest.js';
import manifestControlCharacter from '../rules/manifest-control-character.js';
import manifestDescription from '../rules/manifest-description.js';
import manifestEmptyField from '../rules/manifest-empty-field.js';
import manifestShortName, { SHORT_NAME_ADVISED_LENGTH } from '../rules/manifest-short-name.js';
import manifestToolType, { TOOL_TYPES } from '../rules/manifest-tool-type.js';
import manifestVersion from '../rules/manifest-version.js';
import type { RuleContext } from '../rules/rule.js';

export { TOOL_TYPES };
export type ToolType = (typeof TOOL_TYPES)[number];

/** What a new tool project is made from: the manifest fields a person chooses. */
export interface InitAnswers {
  type: ToolType;
  /** Full display name for the marketplace listing. */
  name: string;
  /** Short name for tab labels. */
  shortName: string;
  /** One sentence saying what the tool does. */
  description: string;
  /** The tool's own SemVer version. */
  version: string;
}

export type AnswerField = keyof InitAnswers;

/** The order in which answers are asked for; later defaults derive from earlier answers. */
export const ANSWER_FIELDS: readonly AnswerField[] = ['type', 'name', 'shortName', 'description', 'version'];

export const DEFAULT_TYPE: ToolType = 'standalone';
export const DEFAULT_VERSION = '1.0.0';
/** The folder `init --yes` creates when none is named. */
export const DEFAULT_FOLDER = 'my-tool';
const FALLBACK_NAME = 'My Tool';

// Each default says what the scaffold really does, so an author who ships it unchanged still
// publishes a true sentence. They leave the name out: a name such as "Dr. Who" would otherwise
// read as two sentences and earn a warning from validate.
const DEFAULT_DESCRIPTIONS: Record<ToolType, string> = {
  standalone: 'Lists customers, jobs and quotes, and creates new quotes from a short form.',
  quoting_extension: 'Prices a kitchen from a few measurements and adds the lines to the open quote.',
};

/** "my-tool" → "My Tool", "kitchen_estimator" → "Kitchen Estimator". */
export function nameFromFolder(folder: string): string {
  const words = folder
    .split(/[\s\-_.]+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}'&+]/gu, ''))
    .filter((word) => word !== '');
  if (words.length === 0) return FALLBACK_NAME;
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/**
 * The name itself when it fits a tab label, else as many of its leading words as fit, else its
 * first characters. Counts code points, as validate does.
 */
export function shortNameFrom(name: string): string {
  const trimmed = name.trim();
  const limit = SHORT_NAME_ADVISED_LENGTH;
  if ([...trimmed].length <= limit) return trimmed;
  let fitted = '';
  for (const word of trimmed.split(/\s+/u)) {
    const candidate = fitted === '' ? word : `${fitted} ${word}`;
    if ([...candidate].length > limit) break;
    fitted = candidate;
  }
  // Nothing fitted: the first word alone is longer than a label, so its start has no spaces.
  return fitted !== '' ? fitted : [...trimmed].slice(0, limit).join('');
}

export function defaultDescription(type: ToolType): string {
  return DEFAULT_DESCRIPTIONS[type];
}

/** The default for one answer, given the answers before it and the project folder's name. */
export function defaultAnswer(field: AnswerField, earlier: Partial<InitAnswers>, folderName: string): string {
  switch (field) {
    case 'type':
      return DEFAULT_TYPE;
    case 'name':
      return nameFromFolder(folderName);
    case 'shortName':
      return shortNameFrom(earlier.name ?? nameFromFolder(folderName));
    case 'description':
      return defaultDescription(earlier.type ?? DEFAULT_TYPE);
    case 'version':
      return DEFAULT_VERSION;
  }
}

/** Fills every answer not given with its default, in asking order. */
export function completeAnswers(given: Partial<InitAnswers>, folderName: string): InitAnswers {
  const answers: Partial<InitAnswers> = {};
  for (const field of ANSWER_FIELDS) {
    const value = given[field] ?? defaultAnswer(field, answers, folderName);
    (answers as Record<AnswerField, string>)[field] = value;
  }
  return answers as InitAnswers;
}

/** Trims every given answer; people paste names with stray spaces. */
export function normaliseAnswers<T extends Partial<Record<AnswerField, string>>>(answers: T): T {
  const result: Partial<Record<AnswerField, string>> = {};
  for (const field of ANSWER_FIELDS) {
    const value = answers[field];
    if (value !== undefined) result[field] = value.trim();
  }
  return result as T;
}

export type AnswerProblemCode =
  | 'empty'
  | 'not-one-line'
  | 'hidden-character'
  | 'unknown-type'
  | 'not-semver'
  | 'too-long'
  | 'longer-than-name'
  | 'several-sentences';

/** One reason an answer cannot be used. Wording comes from {@link describeAnswerProblem}. */
export interface AnswerProblem {
  field: AnswerField;
  code: AnswerProblemCode;
  data: Record<string, unknown>;
}

const NO_FILES: BundleSource = {
  kind: 'folder',
  location: '',
  entries: [],
  findings: [],
  read: async () => ({ bytes: 0, stoppedAtLimit: false }),
  close: async () => {},
};

/**
 * Checks the answers given so far (missing ones are skipped). The manifest checks are validate's
 * own rules run on the manifest these answers produce, so whatever passes here passes validate
 * without a warning; anything they would flag, even as a warning, is refused.
 */
export function checkAnswers(answers: Partial<Record<AnswerField, string>>): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const fields = ANSWER_FIELDS.filter((field) => answers[field] !== undefined);
  for (const field of fields) {
    // A line break in a name would end up in a tab label or the listing; nobody means that.
    if (/\p{Cc}/u.test(answers[field] ?? '')) problems.push({ field, code: 'not-one-line', data: {} });
  }

  const manifest = parseManifest(Buffer.from(JSON.stringify(Object.fromEntries(fields.map((f) => [f, answers[f]]))), 'utf8'));
  const context: RuleContext = {
    source: NO_FILES,
    files: [],
    manifest,
    content: { sizes: new Map(), spent: 0, exhausted: false, unread: [] },
    collected: [],
    excluded: [],
  };
  for (const hit of manifestEmptyField.check(context)) problems.push({ field: hit.data.field as AnswerField, code: 'empty', data: {} });
  for (const hit of manifestToolType.check(context)) problems.push({ field: 'type', code: 'unknown-type', data: { ...hit.data } });
  for (const hit of manifestVersion.check(context)) problems.push({ field: 'version', code: 'not-semver', data: { ...hit.data } });
  for (const hit of manifestDescription.check(context)) problems.push({ field: 'description', code: 'several-sentences', data: { ...hit.data } });
  for (const hit of manifestControlCharacter.check(context)) {
    // Controls are the line complaint above (which \p{Cc} catches).
    if (hit.data.kind !== 'control' || !hasLineProblem(problems, hit.data.field as AnswerField)) {
      problems.push({ field: hit.data.field as AnswerField, code: hit.data.kind === 'control' ? 'not-one-line' : 'hidden-character', data: { codePoint: hit.data.codePoint } });
    }
  }
  for (const hit of manifestShortName.check(context)) {
    const { reason, ...data } = hit.data;
    problems.push({ field: 'shortName', code: reason === 'too-long' ? 'too-long' : 'longer-than-name', data });
  }
  return problems.filter((problem) => !(problem.code !== 'not-one-line' && hasLineProblem(problems, problem.field)));
}

/** A value with a line break gets that one complaint, not a second about what follows from it. */
function hasLineProblem(problems: readonly AnswerProblem[], field: AnswerField): boolean {
  return problems.some((p) => p.field === field && p.code === 'not-one-line');
}

const LABELS: Record<AnswerField, string> = {
  type: 'the type',
  name: 'the name',
  shortName: 'the short name',
  description: 'the description',
  version: 'the version',
};

/** One sentence for a person, without naming a flag or a prompt (callers add that). */
export function describeAnswerProblem(problem: AnswerProblem): string {
  const label = LABELS[problem.field];
  const { data } = problem;
  switch (problem.code) {
    case 'empty':
      return `${label} is empty; give it a value.`;
    case 'not-one-line':
      return `${label} must be a single line of text, without line breaks or control characters.`;
    case 'hidden-character':
      return `${label} contains the invisible or reordering character ${String(data['codePoint'])}, which can make the listing show something else; remove it.`;
    case 'unknown-type':
      return `the type must be standalone or quoting_extension, not "${String(data['value'])}"${data['suggestion'] ? ` (did you mean ${String(data['suggestion'])}?)` : ''}.`;
    case 'not-semver':
      return `the version must be SemVer like 1.0.0, not "${String(data['value'])}"${data['suggestion'] ? `; write ${String(data['suggestion'])}` : ''}.`;
    case 'too-long':
      return `the short name has ${String(data['length'])} characters; tab labels cut anything over ${String(data['limit'])}, so shorten it.`;
    case 'longer-than-name':
      return 'the short name is longer than the name; it is meant to be the short form.';
    case 'several-sentences':
      return `the description reads as ${String(data['sentences'])} sentences; the marketplace listing expects one.`;
  }
}
