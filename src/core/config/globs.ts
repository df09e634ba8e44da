import { ignorePackage } from './ignore-package.js';

/**
 * The pattern language of `overrides[].files`: gitignore syntax, as `.pipelineignore` uses, matched
 * by the same `ignore` package against paths inside the bundle (`vendor/katex.css`). One pattern
 * language across the project: `vendor/` and `*.min.js` mean the same here as in .pipelineignore.
 */

/** gitignore's escapes: a backslash before one of these stands for the character itself (`\[`, `\\`, `\ `). */
const ESCAPED = /\\[\\#!*?[\] ]/g;

/** Why a pattern cannot be used, in words a person can act on; undefined when it is fine. */
export function globProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'a pattern must be a string';
  if (pattern.trim() === '') return 'a pattern cannot be empty';
  if (pattern.startsWith('#')) return 'a pattern starting with # is a comment in gitignore syntax and matches nothing; write \\# for a name that starts with #';
  if (/^!\s*$/.test(pattern)) return '"!" alone negates nothing; write !<pattern>';
  const body = pattern.replace(/^!/, '');
  // Escaped characters are plain text: what is left may hold no backslash and no broken class.
  const unescaped = body.replace(ESCAPED, '_');
  if (unescaped.includes('\\')) return 'use / between folders, not \\';
  if (/[\p{Cc}]/u.test(pattern)) return 'a pattern cannot contain control characters';
  if (/^\.\.?(\/|$)|\/\.\.?(\/|$)/.test(body)) return 'paths are inside the tool folder and never start with ./ or contain ..; write vendor/** rather than ./vendor/**';
  if (/^[A-Za-z]:/.test(body)) return 'patterns are paths inside the tool folder, not drive paths';
  for (const match of unescaped.matchAll(/\[[^\]]*\]?/g)) {
    if (!match[0].endsWith(']') || match[0].length < 3) return `"${match[0]}" is not a complete character class such as [ab] or [a-z]`;
    try {
      new RegExp(match[0]);
    } catch {
      return `"${match[0]}" is not a valid character class (a range must run from low to high, as in [a-z])`;
    }
  }
  return undefined;
}

/**
 * A test for one list of patterns. Later patterns win, so `!vendor/own.js` after `vendor/` takes
 * that file back out. A path gitignore cannot express (absolute, `..`, empty: only a hostile zip
 * has such names) matches nothing, so it keeps the top-level settings.
 */
export function filesMatcher(patterns: readonly string[]): (file: string) => boolean {
  const ignore = ignorePackage();
  const matcher = ignore({ ignorecase: false }).add([...patterns]);
  return (file) => ignore.isPathValid(file) && matcher.ignores(file);
}
