import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIXTURE_ERROR_CODES, PROBLEM_CODES, WARNING_CODES } from '../../src/platform/index.js';

// Codes are public API: each one needs its row in the documentation, and each row its code.
describe('the README', () => {
  it('has one table row for every error, problem, warning and fixture code, and no others', async () => {
    const docs = await readFile(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const documented = [...docs.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    const codes = [ERROR_CODES, PROBLEM_CODES, WARNING_CODES, FIXTURE_ERROR_CODES].flatMap((catalogue) => Object.keys(catalogue));
    expect(documented.sort()).toEqual(codes.sort());
  });
});
