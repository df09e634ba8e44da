import type { BundleEntry } from '../shipment/source.js';
import { REFERENCE_INSECURE, REFERENCE_MISSING, REFERENCE_REMOTE, REFERENCE_ROOT_ABSOLUTE } from './rule-ids.js';

/**
 * What a reference loads. Scripts and stylesheets run or style the tool, so loading them from
 * another site is worth a warning; images, fonts and links are not.
 */
export type ReferenceKind = 'script' | 'stylesheet' | 'resource' | 'link';

/** The bundle's file paths, for exact and case-insensitive look-ups. */
export interface BundleIndex {
  exact: ReadonlySet<string>;
  byLowerCase: ReadonlyMap<string, string>;
}

const indexes = new WeakMap<readonly BundleEntry[], BundleIndex>();

export function bundleIndex(files: readonly BundleEntry[]): BundleIndex {
  let index = indexes.get(files);
  if (!index) {
    const exact = new Set(files.map((f) => f.path));
    const byLowerCase = new Map<string, string>();
    for (const path of exact) if (!byLowerCase.has(path.toLowerCase())) byLowerCase.set(path.toLowerCase(), path);
    index = { exact, byLowerCase };
    indexes.set(files, index);
  }
  return index;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
/** Values a template engine fills in at run time; the checks cannot know what they become. */
const PLACEHOLDER = /\{\{|\$\{|<%/;

export interface ReferenceSite {
  /** A file's report, or a script rule's context.report: a reference's finding needs only these. */
  report: { add(ruleId: string, line: number, column: number, data: Record<string, unknown>): void };
  index: BundleIndex;
  /** Path of the file the reference is written in; relative references resolve from its folder. */
  from: string;
  line: number;
  column: number;
}

/**
 * Checks one reference (a `src`, an `href`, a CSS `url()`). Returns the code of a `javascript:`
 * URL, which the caller scans like any script; undefined otherwise.
 */
export function checkReference(raw: string, kind: ReferenceKind, site: ReferenceSite): string | undefined {
  // Browsers strip surrounding white space from URLs in attributes.
  const reference = raw.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (reference === '' || reference.startsWith('#') || PLACEHOLDER.test(reference)) return undefined;
  const { report, line, column } = site;
  const scheme = SCHEME.exec(reference)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'http') report.add(REFERENCE_INSECURE, line, column, { reference, kind });
    else if (scheme === 'https' && (kind === 'script' || kind === 'stylesheet')) report.add(REFERENCE_REMOTE, line, column, { reference, kind });
    else if (scheme === 'javascript' && kind === 'link') return safeDecode(reference.slice('javascript:'.length));
    // data:, blob:, mailto:, tel:, about: and the like load nothing from the bundle.
    return undefined;
  }
  if (reference.startsWith('//') || reference.startsWith('\\\\')) {
    // Protocol-relative: inside the host's https page it loads from that site over https.
    if (kind === 'script' || kind === 'stylesheet') report.add(REFERENCE_REMOTE, line, column, { reference, kind });
    return undefined;
  }
  const path = safeDecode(reference.replace(/[?#].*$/s, '')).replace(/\\/g, '/');
  if (path === '') return undefined;
  if (path.startsWith('/')) {
    // The host serves the bundle under a path of its own, so "/" is the host's root, not the bundle's.
    const inBundle = normalise(path.slice(1));
    const data: Record<string, unknown> = { reference };
    if (inBundle && site.index.exact.has(inBundle)) data.suggestion = relativeFrom(site.from, inBundle);
    report.add(REFERENCE_ROOT_ABSOLUTE, line, column, data);
    return undefined;
  }
  const resolved = normalise(folderOf(site.from) + path);
  if (resolved === undefined) {
    report.add(REFERENCE_MISSING, line, column, { reference, escapes: true });
    return undefined;
  }
  const target = resolved === '' || resolved.endsWith('/') ? `${resolved}index.html` : resolved;
  if (site.index.exact.has(target)) return undefined;
  const data: Record<string, unknown> = { reference, resolved: target };
  const sameLetters = site.index.byLowerCase.get(target.toLowerCase());
  if (sameLetters) data.sameLetters = sameLetters;
  else {
    const completed = withExtension(reference, resolved, kind, site.index);
    if (completed) Object.assign(data, completed);
  }
  report.add(REFERENCE_MISSING, line, column, data);
  return undefined;
}

/** What bundlers and Node would add to a path that names no file; a browser adds nothing. */
const COMPLETIONS: Partial<Record<ReferenceKind, readonly string[]>> = { script: ['.js', '/index.js'], stylesheet: ['.css'] };

/**
 * `import … from '../utils/util'` where `utils/util.js` is in the bundle: the file the author meant,
 * and the reference written with it (`../utils/util.js`).
 */
function withExtension(reference: string, resolved: string, kind: ReferenceKind, index: BundleIndex): { existing: string; written: string } | undefined {
  const rest = /[?#].*$/s.exec(reference)?.[0] ?? '';
  const path = reference.slice(0, reference.length - rest.length);
  for (const suffix of COMPLETIONS[kind] ?? []) {
    const existing = resolved.endsWith('/') ? `${resolved}${suffix.replace(/^\//, '')}` : `${resolved}${suffix}`;
    if (!existing.startsWith('/') && index.exact.has(existing)) {
      return { existing, written: `${path}${path.endsWith('/') ? suffix.replace(/^\//, '') : suffix}${rest}` };
    }
  }
  return undefined;
}

/** The bundle path a relative reference from `from` names, or undefined for any other reference. */
export function resolveReference(from: string, raw: string): string | undefined {
  const reference = raw.trim();
  if (reference === '' || SCHEME.test(reference) || reference.startsWith('/') || reference.startsWith('\\') || PLACEHOLDER.test(reference)) return undefined;
  const path = safeDecode(reference.replace(/[?#].*$/s, '')).replace(/\\/g, '/');
  return path === '' ? undefined : normalise(folderOf(from) + path);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Resolves `.` and `..` segments; undefined when `..` climbs out of the bundle. */
function normalise(path: string): string | undefined {
  const out: string[] = [];
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
      if (last) out.push('');
    } else if (segment === '.' || (segment === '' && !last)) {
      if (last) out.push('');
    } else out.push(segment);
  }
  return out.join('/');
}

/** A relative reference from `from`'s folder to `to` (both bundle paths). */
function relativeFrom(from: string, to: string): string {
  const fromParts = folderOf(from).split('/').filter(Boolean);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  return [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}
