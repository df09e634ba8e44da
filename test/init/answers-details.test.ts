import { describe, expect, it } from 'vitest';
import {
  ANSWER_FIELDS,
  DEFAULT_FOLDER,
  DEFAULT_TYPE,
  DEFAULT_VERSION,
  checkAnswers,
  completeAnswers,
  defaultAnswer,
  describeAnswerProblem,
  nameFromFolder,
  normaliseAnswers,
  shortNameFrom,
  type AnswerProblem,
} from '../../src/core/init/index.js';

/*
 * The answers `init` asks for, to the letter: the defaults, the short name cut to a tab label,
 * and each refusal in the words a person reads. (test/init/answers.test.ts holds the main cases.)
 */

const good = { type: 'standalone', name: 'Kitchen Estimator', shortName: 'Kitchen', description: 'Prices kitchens.', version: '1.0.0' };
const sentences = (answers: Partial<Record<(typeof ANSWER_FIELDS)[number], string>>) => checkAnswers(answers).map(describeAnswerProblem);

describe('the defaults', () => {
  it('are a standalone tool, version 1.0.0, in my-tool, with a description that says what the template does', () => {
    expect([DEFAULT_TYPE, DEFAULT_VERSION, DEFAULT_FOLDER]).toEqual(['standalone', '1.0.0', 'my-tool']);
    expect(ANSWER_FIELDS).toEqual(['type', 'name', 'shortName', 'description', 'version']);
    expect(completeAnswers({}, 'my-tool')).toEqual({
      type: 'standalone',
      name: 'My Tool',
      shortName: 'My Tool',
      description: 'Lists customers, jobs and quotes, and creates new quotes from a short form.',
      version: '1.0.0',
    });
    expect(defaultAnswer('description', { type: 'quoting_extension' }, 'x')).toBe('Prices a kitchen from a few measurements and adds the lines to the open quote.');
    expect(defaultAnswer('name', {}, 'kitchen')).toBe('Kitchen');
    // The name is not cut to a tab label: only the short name is.
    expect(defaultAnswer('name', {}, 'kitchen-and-bathroom-renovations')).toBe('Kitchen And Bathroom Renovations');
    expect(defaultAnswer('shortName', {}, 'kitchen-and-bathroom-renovations')).toBe('Kitchen And Bathroom');
  });

  it('make a name from a folder of any spelling, keeping letters, digits and & + \'', () => {
    expect(nameFromFolder('tom\'s--kitchen & co.v2')).toBe('Tom\'s Kitchen & Co V2');
    expect(nameFromFolder('café_über')).toBe('Café Über');
    expect(nameFromFolder('(a)(b)')).toBe('Ab');
    expect(nameFromFolder('...')).toBe('My Tool');
  });
});

describe('shortNameFrom', () => {
  it('keeps a name of exactly 24 characters, trimmed, and cuts one of 25', () => {
    const exactly = 'Abcdefghij Klmnopqrst Uv';
    expect([...exactly]).toHaveLength(24);
    expect(shortNameFrom(`  ${exactly}  `)).toBe(exactly);
    expect(shortNameFrom(`${exactly}w`)).toBe('Abcdefghij Klmnopqrst');
    // As written, spaces and all, when it fits.
    expect(shortNameFrom('Abcdefghij  Klmnopqrst U')).toBe('Abcdefghij  Klmnopqrst U');
    expect(shortNameFrom('  Kitchen  ')).toBe('Kitchen');
  });

  it('takes whole words while they fit, a 24-character word included, whatever the spaces between', () => {
    expect(shortNameFrom('Kitchen   and\tBathroom   Renovation')).toBe('Kitchen and Bathroom');
    expect(shortNameFrom('Abcdefghijklmnopqrstuvwx and more')).toBe('Abcdefghijklmnopqrstuvwx');
    expect(shortNameFrom('Abcdefghij Klmnopqrst Uv more')).toBe('Abcdefghij Klmnopqrst Uv');
  });

  it('cuts a first word too long for a label at 24 characters, without a trailing space', () => {
    expect(shortNameFrom('Abcdefghijklmnopqrstuvwxyz')).toBe('Abcdefghijklmnopqrstuvwx');
    // Counted in code points, as validate counts them.
    expect(shortNameFrom('😀'.repeat(30))).toBe('😀'.repeat(24));
  });
});

describe('normaliseAnswers', () => {
  it('trims each given answer and leaves out what was not given', () => {
    expect(normaliseAnswers({ name: '  Kitchen  ', version: ' 1.0.0\t' })).toEqual({ name: 'Kitchen', version: '1.0.0' });
  });
});

describe('checkAnswers', () => {
  it('checks only the answers given', () => {
    expect(checkAnswers({ shortName: 'A short name longer than any tab' })).toEqual([{ field: 'shortName', code: 'too-long', data: { length: 32, limit: 24 } }]);
    expect(checkAnswers({ version: '1.0' })).toEqual([{ field: 'version', code: 'not-semver', data: { value: '1.0', suggestion: '1.0.0' } }]);
  });

  it('gives each problem its data', () => {
    expect(checkAnswers({ ...good, type: 'quoting-extension' })).toEqual([{ field: 'type', code: 'unknown-type', data: { value: 'quoting-extension', suggestion: 'quoting_extension' } }]);
    expect(checkAnswers({ ...good, description: 'One. Two. Three.' })).toEqual([{ field: 'description', code: 'several-sentences', data: { sentences: 3 } }]);
    expect(checkAnswers({ ...good, name: 'Kit', shortName: 'Kitchen' })).toEqual([{ field: 'shortName', code: 'longer-than-name', data: { length: 7, limit: 24 } }]);
  });

  it('says only that a field is not one line, not what follows from it, and leaves the other fields\' problems', () => {
    expect(checkAnswers({ ...good, name: 'Kit\nchen', shortName: 'Kitchen Estimator Pro' })).toEqual([
      { field: 'name', code: 'not-one-line', data: {} },
      { field: 'shortName', code: 'longer-than-name', data: expect.anything() },
    ]);
    expect(checkAnswers({ ...good, version: '1.0\n' })).toEqual([{ field: 'version', code: 'not-one-line', data: {} }]);
  });
});

describe('describeAnswerProblem', () => {
  it('says each problem in one sentence, naming the field', () => {
    expect(sentences({ ...good, name: ' ' })).toEqual(['the name is empty; give it a value.']);
    expect(sentences({ ...good, description: 'a\u0007b.' })).toEqual(['the description must be a single line of text, without line breaks or control characters.']);
    expect(sentences({ ...good, type: 'quoting-extension' })).toEqual(['the type must be standalone or quoting_extension, not "quoting-extension" (did you mean quoting_extension?).']);
    expect(sentences({ ...good, type: 'zzzzzzzzzzzzz' })).toEqual(['the type must be standalone or quoting_extension, not "zzzzzzzzzzzzz".']);
    expect(sentences({ ...good, version: '1.0' })).toEqual(['the version must be SemVer like 1.0.0, not "1.0"; write 1.0.0.']);
    expect(sentences({ ...good, version: 'latest' })).toEqual(['the version must be SemVer like 1.0.0, not "latest".']);
    expect(sentences({ ...good, shortName: 'A short name longer than any tab' })).toEqual(['the short name has 32 characters; tab labels cut anything over 24, so shorten it.']);
    expect(sentences({ ...good, name: 'Kit', shortName: 'Kitchen' })).toEqual(['the short name is longer than the name; it is meant to be the short form.']);
    expect(sentences({ ...good, description: 'One. Two.' })).toEqual(['the description reads as 2 sentences; the marketplace listing expects one.']);
  });

  it('names every field', () => {
    const empty = (field: AnswerProblem['field']) => describeAnswerProblem({ field, code: 'empty', data: {} });
    expect(ANSWER_FIELDS.map(empty)).toEqual([
      'the type is empty; give it a value.',
      'the name is empty; give it a value.',
      'the short name is empty; give it a value.',
      'the description is empty; give it a value.',
      'the version is empty; give it a value.',
    ]);
  });
});
