import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/core/manifest/read-manifest.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';
import {
  checkAcceptedMeansReadable,
  checkBomb,
  checkByteString,
  checkCleanBase,
  checkCli,
  checkMutatedZip,
} from './checks.js';
import { REGRESSION_DIR, type RegressionFile } from './harness.js';
import { packChecks } from './pack-checks.js';

/*
 * Every failure a property ever found, replayed through the same check that caught it. The files
 * in test/fixtures/fuzz-regressions are the shrunk inputs, each with a note on what broke; the
 * focused tests below pin each fix down by name as well.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const replays: Record<string, (input: any) => Promise<void>> = {
  'validate/mutated-zip': checkMutatedZip,
  'validate/bytes': checkByteString,
  'validate/bomb': checkBomb,
  'validate/clean-base': checkCleanBase,
  'validate/accepted-means-readable': checkAcceptedMeansReadable,
  'validate/cli': ([input, format]) => checkCli(input, format),
  ...packChecks,
};

const saved = existsSync(REGRESSION_DIR) ? readdirSync(REGRESSION_DIR).filter((f) => f.endsWith('.json')).sort() : [];
const load = (file: string) => JSON.parse(readFileSync(path.join(REGRESSION_DIR, file), 'utf8')) as RegressionFile;

describe('saved fuzz failures', () => {
  for (const file of saved) {
    const record = load(file);
    it(`${file} (${record.property})`, async () => {
      const replay = replays[record.property];
      expect(replay, `no check registered for property ${record.property}`).toBeDefined();
      await replay!(record.input);
    });
  }

  it('each saved failure says what broke', () => {
    const undocumented = saved.filter((file) => {
      const { broke } = load(file);
      return typeof broke !== 'string' || broke.trim() === '' || broke.startsWith('TODO');
    });
    expect(undocumented).toEqual([]);
  });
});

describe('fixes found by fuzzing', () => {
  it('a manifest nested thousands of levels deep is a syntax error, not a stack overflow', () => {
    for (const text of ['['.repeat(60_000), '[{"a":'.repeat(3859), '{"a":'.repeat(12_000) + '1']) {
      const state = parseManifest(Buffer.from(text));
      expect(state.status).toBe('syntax-error');
    }
  });

  it('an entry claiming a "version needed to extract" above 4.6 is archive-unsupported', async () => {
    const withVersion = async (version: number) => {
      const zip = writeZip(goodEntries());
      const bytes = readFileSync(zip);
      const cd = bytes.indexOf(Buffer.from('504b0102', 'hex'));
      bytes.writeUInt16LE(version, cd + 6);
      writeFileSync(zip, bytes);
      return (await validateBundle(zip)).problems.filter((p) => p.ruleId === 'archive-unsupported');
    };
    expect(await withVersion(20)).toEqual([]);
    expect(await withVersion(45)).toEqual([]);
    expect(await withVersion(46)).toEqual([]);
    // The high byte is not part of the version (some writers put the host system there).
    expect(await withVersion(0x0314)).toEqual([]);
    expect(await withVersion(47)).toEqual([expect.objectContaining({ file: 'manifest.json', data: { feature: 'version-needed', version: '4.7' } })]);
    expect(await withVersion(64)).toEqual([expect.objectContaining({ data: { feature: 'version-needed', version: '6.4' } })]);
  });

  it('an entry in decomposed Unicode (NFD) fails in the folder as it would in the zip pack writes', async () => {
    const nfd = 'Å.html'.normalize('NFD');
    const nfc = 'Å.html'.normalize('NFC');
    const entryProblems = async (bundle: string) => (await validateBundle(bundle)).problems.filter((p) => p.ruleId === 'manifest-entry-missing');
    const manifest = (entry: string) => JSON.stringify({ ...goodManifest, entry });

    // Entry and file both NFD: pack would store the file as NFC and the entry would name nothing;
    // the folder is judged under the names its zip will have, so the other form is the NFC one.
    const both = await entryProblems(writeFolder({ 'manifest.json': manifest(nfd), [nfd]: '<p>x</p>' }));
    expect(both).toEqual([expect.objectContaining({ data: expect.objectContaining({ entry: nfd, otherForm: nfc }) })]);
    // Entry NFC, file NFD (as macOS may store it): the zip will have the NFC name, so all is well.
    expect(await entryProblems(writeFolder({ 'manifest.json': manifest(nfc), [nfd]: '<p>x</p>' }))).toEqual([]);
    // In a zip the names are what the server sees: no normalising there.
    const zip = writeZip([{ name: 'manifest.json', data: manifest(nfc) }, { name: nfd, data: '<p>x</p>' }]);
    expect(await entryProblems(zip)).toEqual([expect.objectContaining({ data: expect.objectContaining({ otherForm: nfd }) })]);
  });

  it('folders that differ only in letter case are duplicates in a zip too, where no folder entry lists them', async () => {
    const files = { ...goodFiles(), 'A/two.html': '<p>2</p>', 'a/one.html': '<p>1</p>' };
    const hits = async (bundle: string) => (await validateBundle(bundle)).problems.filter((p) => p.ruleId === 'path-duplicate').map((p) => [p.file, p.data]);
    // Both list "A/" before "a/" (the folder sorts its walk; the zip keeps this insertion order).
    const expected = [['a/', { other: 'A/', how: 'case' }]];
    expect(await hits(writeZip(Object.entries(files).map(([name, data]) => ({ name, data }))))).toEqual(expected);
    expect(await hits(writeFolder(files))).toEqual(expected);
    // Listed folder entries are not counted twice.
    const listed = writeZip([...goodEntries(), { name: 'a/', data: '' }, { name: 'a/one.html', data: '<p>1</p>' }]);
    expect((await validateBundle(listed)).problems.map((p) => p.ruleId)).toEqual([]);
  });

  it('a non-ASCII name whose UTF-8 flag differs between local and central header is a header mismatch', async () => {
    const mismatch = async (name: string) => {
      const zip = writeZip([...goodEntries(), { name, data: '<svg/>', central: { flags: 0 }, local: { flags: 0x800 } }]);
      return (await validateBundle(zip)).problems.filter((p) => p.ruleId === 'archive-header-mismatch').map((p) => [p.file, p.data]);
    };
    expect(await mismatch('ßa/a.svg')).toEqual([['ßa/a.svg', { fields: ['flags'] }]]);
    // Both decodings of an ASCII name agree, so the flag makes no difference there.
    expect(await mismatch('plain.svg')).toEqual([]);
  });

  it('an entry flagged as patch data (general-purpose bit 5) is archive-unsupported', async () => {
    const flagged = async (flags: number) => {
      const zip = writeZip([...goodEntries(), { name: 'x.js', data: 'x', central: { flags } }]);
      return (await validateBundle(zip)).problems.filter((p) => p.ruleId === 'archive-unsupported').map((p) => [p.file, p.data]);
    };
    expect(await flagged(0x20)).toEqual([['x.js', { feature: 'patched-data' }]]);
    // Bits that only tune the deflate encoder change nothing for a reader.
    expect(await flagged(0x02)).toEqual([]);
  });
});
