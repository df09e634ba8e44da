import { describe, expect, it } from 'vitest';
import {
  checkAnswers,
  completeAnswers,
  defaultAnswer,
  nameFromFolder,
  shortNameFrom,
  type AnswerProblem,
} from '../../src/core/init/index.js';

const codes = (problems: AnswerProblem[]) => problems.map((p) => `${p.field}:${p.code}`);

describe('defaults', () => {
  it('derives a display name from the folder name', () => {
    expect(nameFromFolder('my-tool')).toBe('My Tool');
    expect(nameFromFolder('kitchen_estimator')).toBe('Kitchen Estimator');
    expect(nameFromFolder('estimator')).toBe('Estimator');
    expect(nameFromFolder('---')).toBe('My Tool');
  });

  it('keeps a short name within 24 characters, on a word boundary when it can', () => {
    expect(shortNameFrom('Kitchen Estimator')).toBe('Kitchen Estimator');
    expect(shortNameFrom('Kitchen and Bathroom Renovation Estimator')).toBe('Kitchen and Bathroom');
    const long = shortNameFrom('Supercalifragilisticexpialidocious');
    expect([...long]).toHaveLength(24);
  });

  it('fills what is not given, each default following the answers before it', () => {
    const answers = completeAnswers({ name: 'Kitchen and Bathroom Renovation Estimator' }, 'reno');
    expect(answers).toMatchObject({ type: 'standalone', version: '1.0.0', shortName: 'Kitchen and Bathroom' });
    expect(checkAnswers(answers)).toEqual([]);
    expect(defaultAnswer('description', { type: 'quoting_extension' }, 'x')).not.toBe(defaultAnswer('description', { type: 'standalone' }, 'x'));
  });

  it('gives defaults that pass every check, for both types', () => {
    for (const type of ['standalone', 'quoting_extension'] as const) {
      expect(checkAnswers(completeAnswers({ type }, 'a-very-long-folder-name-for-a-tool-project'))).toEqual([]);
    }
  });
});

describe('checkAnswers', () => {
  const good = { type: 'standalone', name: 'Kitchen Estimator', shortName: 'Kitchen', description: 'Prices kitchens.', version: '1.0.0' };

  it('accepts good answers, and tolerates missing ones', () => {
    expect(checkAnswers(good)).toEqual([]);
    expect(checkAnswers({})).toEqual([]);
  });

  it('refuses empty values', () => {
    expect(codes(checkAnswers({ ...good, name: '   ' }))).toContain('name:empty');
    expect(codes(checkAnswers({ ...good, description: '' }))).toContain('description:empty');
  });

  it('refuses versions that are not strict SemVer, with validate’s suggestion', () => {
    for (const version of ['1.0', 'v1.0.0', '1.0.0.0', 'latest']) {
      expect(codes(checkAnswers({ ...good, version }))).toEqual(['version:not-semver']);
    }
    expect(checkAnswers({ ...good, version: '1.0' })[0]?.data).toMatchObject({ value: '1.0', suggestion: '1.0.0' });
    expect(checkAnswers({ ...good, version: '2.0.0-beta.1+build.5' })).toEqual([]);
  });

  it('refuses an unknown type', () => {
    expect(codes(checkAnswers({ ...good, type: 'quoting-extension' }))).toEqual(['type:unknown-type']);
  });

  it('refuses whatever validate would warn about in the manifest', () => {
    expect(codes(checkAnswers({ ...good, shortName: 'A short name that is far too long' }))).toEqual(['shortName:too-long']);
    expect(codes(checkAnswers({ ...good, name: 'Kit', shortName: 'Kitchen' }))).toEqual(['shortName:longer-than-name']);
    expect(codes(checkAnswers({ ...good, description: 'Prices kitchens. Adds lines too.' }))).toEqual(['description:several-sentences']);
  });

  it('refuses line breaks and control characters, once per field', () => {
    expect(codes(checkAnswers({ ...good, name: 'Kitchen\nEstimator' }))).toEqual(['name:not-one-line']);
    expect(codes(checkAnswers({ ...good, description: 'Prices\tkitchens.' }))).toEqual(['description:not-one-line']);
    expect(codes(checkAnswers({ ...good, description: 'Prices\u2028kitchens.' }))).toEqual(['description:not-one-line']);
  });

  it('refuses bidirectional overrides and invisible characters, as validate does', () => {
    expect(checkAnswers({ ...good, name: 'Kitchen \u202Eetamitse' })).toEqual([{ field: 'name', code: 'hidden-character', data: { codePoint: 'U+202E' } }]);
    expect(codes(checkAnswers({ ...good, shortName: 'Kit\u200Bchen' }))).toEqual(['shortName:hidden-character']);
    expect(codes(checkAnswers({ ...good, name: 'Kitchen \u{1F469}\u200D\u{1F373}' }))).toEqual([]);
  });
});
