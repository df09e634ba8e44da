import { describe, expect, it } from 'vitest';
import { ConfigError, parseProjectConfig } from '../../src/core/config/project-config.js';
import { MAX_JSON_DEPTH, positionOf, readJson, scanJson } from '../../src/core/json/scan-json.js';
import { FixtureError } from '../../src/platform/errors.js';
import { parseFixtures } from '../../src/platform/fixtures.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, goodManifest, writeFolder } from '../helpers/bundles.js';

/**
 * Every JSON file pipeline-tool reads (the manifest, the project file, a fixture file) may nest
 * objects and arrays at most 512 levels deep, and deeper is refused with a message naming the
 * limit, at the bracket that passes it.
 */

/** `levels` arrays (or objects) nested around `inner`, as the value of the key "deep". */
const nested = (levels: number, kind: 'array' | 'object' = 'array', inner = '1') =>
  kind === 'array' ? `${'['.repeat(levels)}${inner}${']'.repeat(levels)}` : `${'{"k":'.repeat(levels - 1)}{"k":${inner}}${'}'.repeat(levels - 1)}`;
const tooDeep = `objects and arrays are nested more than 512 levels deep here; the limit is 512`;

describe('the limit, where it is passed', () => {
  it('is 512 levels', () => {
    expect(MAX_JSON_DEPTH).toBe(512);
  });

  it.each(['array', 'object'] as const)('512 levels of %s read; the 513th opening bracket is refused, there', (kind) => {
    for (const inner of ['1', '[]', '{}', '"]]]]"']) {
      const ok = nested(512, kind, inner === '[]' || inner === '{}' ? '1' : inner);
      expect(scanJson(ok).ok, `${kind} ${inner}`).toBe(true);
      expect(readJson(ok)).toEqual({ ok: true, value: JSON.parse(ok) });
    }
    const deep = nested(513, kind);
    const at = kind === 'array' ? 512 : 512 * 5;
    expect(deep[at]).toMatch(/[[{]/);
    expect(scanJson(deep)).toEqual({ ok: false, offset: at, message: tooDeep, tooDeep: true });
    expect(readJson(deep)).toEqual({ ok: false, offset: at, message: tooDeep, tooDeep: true });
    // 512 levels whose innermost value is an empty one: the empty one is level 512.
    expect(scanJson(nested(511, kind, kind === 'array' ? '[]' : '{}')).ok).toBe(true);
    expect(scanJson(nested(512, kind, kind === 'array' ? '[]' : '{}')).ok).toBe(false);
  });

  it('brackets inside strings, escaped quotes included, do not count', () => {
    const text = `{"a": "${'[{'.repeat(600)}\\"${'['.repeat(600)}", "b": ${nested(512)}}`;
    expect(readJson(text)).toEqual({ ok: false, offset: text.indexOf('"b": ') + 5 + 511, message: tooDeep, tooDeep: true });
    expect(readJson(`{"a": "\\\\", "b": ${nested(511)}}`).ok).toBe(true);
    expect(scanJson(`["\\\\", ${nested(511)}]`).ok).toBe(true);
  });

  it('far deeper nesting is refused at the same bracket, with no stack overflow', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(readJson(deep)).toEqual({ ok: false, offset: 512, message: tooDeep, tooDeep: true });
    expect(scanJson(`{"x": ${deep}}`)).toEqual({ ok: false, offset: 6 + 511, message: tooDeep, tooDeep: true });
  });

  it('a syntax error keeps its place (a trailing comma is placed at the comma) and JSON.parse error', () => {
    const read = readJson('{\n  "a": 1,\n}');
    if (read.ok) throw new Error('expected an error');
    expect(positionOf('{\n  "a": 1,\n}', read.offset)).toEqual({ line: 2, column: 9 });
    expect(read.message).toContain('trailing comma');
    expect(read.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('each JSON file pipeline-tool reads refuses deeper nesting, naming the limit', () => {
  it('manifest.json, as manifest-syntax at the bracket', async () => {
    // The manifest's own object is the first level.
    const manifest = (levels: number) => `{\n  "$schema": "x",\n  "deep": ${nested(levels - 1)},\n${JSON.stringify(goodManifest).slice(1)}`;
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': manifest(513) }));
    expect(report.problems.map((p) => [p.ruleId, p.line, p.column, p.data, p.message])).toEqual([
      [
        'manifest-syntax',
        3,
        11 + 511,
        { detail: tooDeep, limit: 512 },
        "manifest.json nests objects and arrays more than 512 levels deep, the most pipeline-tool reads in any JSON file (the platform's records are far flatter). A manifest holds six strings; write it flat.",
      ],
    ]);
    // 512 levels: read, and judged like any manifest (an unknown field).
    const flat = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': manifest(512) }));
    expect(flat.problems.map((p) => p.ruleId)).toEqual(['manifest-unknown-field']);
  });

  it('a fixture file, as FIXTURE_SYNTAX at the bracket', async () => {
    // The file's own object is the first level.
    const error = await parseFixtures(`{\n  "deep": ${nested(512)}\n}`, 'fixtures.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as FixtureError).code).toBe('FIXTURE_SYNTAX');
    expect((error as FixtureError).problems).toEqual([{ pointer: '', line: 2, column: 11 + 511, message: tooDeep }]);
    // 512 levels parse; what the schema says of them is another matter.
    const within = await parseFixtures(`{\n  "deep": ${nested(511)}\n}`, 'fixtures.json').catch((e: unknown) => e);
    expect((within as FixtureError).code).not.toBe('FIXTURE_SYNTAX');
  });

  it('the project file, as a ConfigError at the bracket that does not call it invalid JSON', () => {
    // The file's own object is the first level.
    const text = (levels: number) => `{\n  "rules": {},\n  "deep": ${nested(levels - 1)}\n}`;
    const error = (() => {
      try {
        parseProjectConfig(text(513), 'pipeline-tool.config.json');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`pipeline-tool.config.json:3:${11 + 511}: ${tooDeep}.`);
    expect(() => parseProjectConfig(text(512), 'pipeline-tool.config.json')).toThrow(/"deep"/);
  });
});
