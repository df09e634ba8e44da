import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, ERROR_CODES, FIXTURE_ERROR_CODES, PROBLEM_CODES, WARNING_CODES } from '../../src/platform/index.js';

const doc = (name: string) => readFile(path.resolve(import.meta.dirname, '../../docs', name), 'utf8');

// Codes are public API: each one needs its row in the documentation, and each row its code.
describe('the documentation of codes and fixtures', () => {
  it('docs/errors.md has one table row for every error, problem, warning, fixture and REST error code, and no others', async () => {
    const documented = [...(await doc('errors.md')).matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    const codes = [ERROR_CODES, PROBLEM_CODES, WARNING_CODES, FIXTURE_ERROR_CODES, API_ERROR_CODES].flatMap((catalogue) => Object.keys(catalogue));
    expect(documented.sort()).toEqual(codes.sort());
  });

  it('gives each REST error code the status the API answers with', async () => {
    const rows = [...(await doc('errors.md')).matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(Object.entries(API_ERROR_CODES).map(([code, { status }]) => [code, status]));
  });

  it('docs/fixtures.md describes every top-level field of the fixture file', async () => {
    const section = await doc('fixtures.md');
    const schema = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../schemas/fixtures.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
    const fields = Object.keys(schema.properties).filter((field) => field !== '$schema');
    expect(fields.filter((field) => !section.includes(`\`${field}\``))).toEqual([]);
  });
});
