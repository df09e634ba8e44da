import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rules } from '../src/core/rules/index.js';

/*
 * Severities and locks are public API: an author's CI passes or fails on them. The rules
 * tables of docs/rules.md state them, and this test holds the registry to that statement, so changing a rule's
 * severity, or unlocking it, means changing the documentation on purpose.
 */

const rulesPage = readFileSync(new URL('../docs/rules.md', import.meta.url), 'utf8');

/** `| \`rule-id\` | severity cell | ...` rows of every table in docs/rules.md. */
function documentedRules(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const match of rulesPage.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|/gm)) {
    const id = match[1]!;
    rows.set(id, [...(rows.get(id) ?? []), match[2]!.trim()]);
  }
  return rows;
}

describe("the rules tables of docs/rules.md", () => {
  const documented = documentedRules();

  it('state every rule exactly once, with its severity and whether it is locked', () => {
    const expected = Object.fromEntries(rules.map((rule) => [rule.id, [rule.locked ? `${rule.severity}, locked` : rule.severity]]));
    const actual = Object.fromEntries(rules.map((rule) => [rule.id, documented.get(rule.id) ?? []]));
    expect(actual).toEqual(expected);
  });

  it('name no rule that does not exist', () => {
    const known = new Set(rules.map((rule) => rule.id));
    const severityWords = /^(error|warning)(, locked)?$/;
    const unknown = [...documented.entries()].filter(([id, cells]) => !known.has(id) && cells.every((cell) => severityWords.test(cell)));
    expect(unknown.map(([id]) => id)).toEqual([]);
  });

  it('lock exactly the marketplace limits, unsafe paths, an unreadable manifest and the archive checks', () => {
    const locked = rules.filter((rule) => rule.locked).map((rule) => rule.id);
    expect(locked.filter((id) => !id.startsWith('archive-')).sort()).toEqual(
      [
        'bundle-size',
        'entry-not-regular',
        'file-count',
        'file-type',
        'manifest-encoding',
        'manifest-missing',
        'manifest-syntax',
        'manifest-too-large',
        'path-control-character',
        'path-dot-prefix',
        'path-duplicate',
        'path-encoding',
        'path-name-too-long',
        'path-unicode-mismatch',
        'path-unsafe',
        'unpacked-size',
      ].sort(),
    );
    const archive = rules.filter((rule) => rule.id.startsWith('archive-'));
    expect(archive.filter((rule) => !rule.locked).map((rule) => rule.id)).toEqual([]);
    for (const rule of rules.filter((r) => r.locked)) expect(rule.severity).toBe('error');
  });
});
