import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, writeBytes, writeZip } from '../helpers/bundles.js';
import { buildZip, unicodePathField } from '../helpers/zip-builder.js';
import { shapes } from './zip-corpus.js';

const ids = (report: { problems: { ruleId: string }[] }) => report.problems.map((p) => p.ruleId);

describe("other readers' test shapes get the right verdict", () => {
  it.each(shapes.map((shape) => [shape.name, shape]))('%s', async (_name, shape) => {
    const found = ids(await validateBundle(writeBytes(shape.bytes())));
    if (shape.clean) expect(found).toEqual([]);
    for (const id of shape.has ?? []) expect(found).toContain(id);
    for (const id of shape.lacks ?? []) expect(found).not.toContain(id);
  });
});

const PYTHON_HASHES = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir()}))
`;

describe('what validate accepts, Python reads the same', () => {
  it.each(shapes.filter((s) => s.clean).map((s) => [s.name, s]))('%s', async (_name, clean) => {
    const file = writeBytes(clean.bytes());
    const theirs = JSON.parse(execFileSync('python3', ['-c', PYTHON_HASHES, file], { encoding: 'utf8' })) as Record<string, string>;
    const source = await openZipSource(file);
    const ours: Record<string, string> = {};
    try {
      for (const entry of source.entries.filter((e) => e.kind === 'file')) {
        const hash = createHash('sha256');
        await source.read(entry, 1_000_000, (chunk) => hash.update(chunk));
        ours[entry.path] = hash.digest('hex');
      }
    } finally {
      await source.close();
    }
    expect(theirs).toEqual(ours);
  });
});

const shape = (name: string) => writeBytes(shapes.find((s) => s.name.startsWith(name))!.bytes());

describe('Zip64', () => {
  it('reads the real sizes and offsets from the Zip64 fields', async () => {
    const source = await openZipSource(shape('Zip64: every entry'));
    try {
      expect(source.findings).toEqual([]);
      const app = source.entries.find((e) => e.path === 'app.js')!;
      expect(app.declaredSize).toBe(Buffer.byteLength(goodEntries().find((e) => e.name === 'app.js')!.data as string));
      const chunks: Buffer[] = [];
      await source.read(app, 1000, (chunk) => chunks.push(chunk));
      expect(Buffer.concat(chunks).toString()).toBe('document.body.append("ready");\n');
    } finally {
      await source.close();
    }
  });

  it('says which Zip64 field is missing, on the entry', async () => {
    const report = await validateBundle(shape('CPython bad_zip64_extra: the Zip64 field lacks the local header offset'));
    expect(report.problems).toContainEqual(
      expect.objectContaining({ ruleId: 'archive-corrupt', file: 'a.js', data: { reason: expect.stringContaining('local header offset to a Zip64 field that is too short') } }),
    );
  });
});

describe('one finding, with the right reason', () => {
  it('a Unicode Path field names both names', async () => {
    const report = await validateBundle(shape('Info-ZIP Unicode Path naming another file'));
    const hit = report.problems.find((p) => p.ruleId === 'path-unicode-mismatch')!;
    expect(hit).toMatchObject({ file: 'a.js', data: { other: 'b.js', crcMatches: true, where: 'central' } });
    expect(hit.message).toContain('"a.js"');
    expect(hit.message).toContain('"b.js"');
    const stale = await validateBundle(shape('a stale Info-ZIP'));
    expect(stale.problems.find((p) => p.ruleId === 'path-unicode-mismatch')!.data).toEqual({ other: 'b.js', crcMatches: false, where: 'central' });
  });

  it('a field of another version is ignored, as readers ignore it', async () => {
    const field = unicodePathField(Buffer.from('a.js'), 'b.js');
    field[4] = 2;
    expect(ids(await validateBundle(writeZip([...goodEntries(), { name: 'a.js', data: 'x', extra: field }])))).toEqual([]);
  });

  it('an extra field that lies says where and by how much', async () => {
    const report = await validateBundle(shape('extra field running past its block (local)'));
    expect(report.problems.filter((p) => p.ruleId === 'archive-extra-field')).toEqual([
      expect.objectContaining({ file: 'a.js', data: { where: 'local', id: '0x5455', declared: 40, available: 8 } }),
    ]);
  });

  it('bsdtar ./ names: one finding, with the cause and the fix, and no missing manifest or reference after it', async () => {
    // The clean tool's page refers to styles.css and app.js, which the archive holds as ./styles.css and ./app.js.
    const report = await validateBundle(shape('bsdtar -a'));
    expect(report.problems.map((p) => p.ruleId)).toEqual(['path-dot-prefix']);
    expect(report.problems[0]!.message).toContain('pipeline-tool pack');
    expect(report.problems[0]!.message).not.toContain('zipped the folder');
    // Only the ./ names are forgiven: a file the archive lacks under its ./ name too is still missing.
    const page = '<link rel="stylesheet" href="styles.css"><script src="gone.js"></script>';
    const entries = goodEntries().map((e) => ({ ...e, name: `./${e.name as string}`, ...(e.name === 'index.html' ? { data: page } : {}) }));
    const gone = await validateBundle(writeZip(entries));
    expect(gone.problems.map((p) => [p.ruleId, p.data?.['resolved']])).toEqual([
      ['path-dot-prefix', undefined],
      ['reference-missing', 'gone.js'],
    ]);
  });

  it('a ./ name that climbs out is still path-unsafe', async () => {
    const entries = [...goodEntries().map((e) => ({ ...e, name: `./${e.name as string}` })), { name: './../evil.js', data: 'x' }];
    const report = await validateBundle(writeZip(entries));
    expect(report.problems.filter((p) => p.ruleId === 'path-unsafe').map((p) => p.file)).toEqual(['./../evil.js']);
  });

  it('zero padding is trailing data with the padding fix, not "do not append"', async () => {
    for (const name of ['bsdtar to a pipe', 'zero padding longer']) {
      const hit = (await validateBundle(shape(name))).problems.find((p) => p.ruleId === 'archive-trailing-data')!;
      expect(hit.data).toMatchObject({ zeros: true });
      expect(hit.message).not.toContain('append');
    }
    const junk = (await validateBundle(shape('Go test-trailing-junk'))).problems.find((p) => p.ruleId === 'archive-trailing-data')!;
    expect(junk.data).toEqual({ bytes: 13 });
  });

  it('a CRC mismatch in a data descriptor is a CRC mismatch', async () => {
    const report = await validateBundle(shape('a data descriptor with another checksum'));
    expect(report.problems).toContainEqual(
      expect.objectContaining({ ruleId: 'archive-crc-mismatch', file: 'a.js', data: { expected: expect.any(String), actual: '00000007', where: 'data descriptor' } }),
    );
  });

  it('..\\..\\file climbs out of the bundle on Windows', async () => {
    const report = await validateBundle(writeZip([...goodEntries(), { name: '..\\..\\file.js', data: 'x' }]));
    expect(report.problems.find((p) => p.ruleId === 'path-unsafe')!.message).toContain('climbs out of the bundle on Windows');
  });

  it('two equal names are a duplicate, not a letter-case clash', async () => {
    const report = await validateBundle(writeZip([...goodEntries(), { name: 'app.js', data: 'again' }]));
    const hits = report.problems.filter((p) => p.ruleId === 'path-duplicate');
    expect(hits).toEqual([expect.objectContaining({ file: 'app.js', data: { other: 'app.js', how: 'exact' } })]);
    expect(hits[0]!.message).not.toMatch(/case|normalis/);
  });

  it('a file used as a folder is named as the file, once', async () => {
    for (const order of [
      ['lib/b.js', 'lib/b.js/c.js'],
      ['lib/b.js/c.js', 'lib/b.js'],
    ]) {
      const report = await validateBundle(writeZip([...goodEntries(), ...order.map((name) => ({ name, data: 'x' }))]));
      expect(report.problems.filter((p) => p.ruleId === 'path-duplicate')).toEqual([
        expect.objectContaining({ file: 'lib/b.js', data: { other: 'lib/b.js/c.js', how: 'file-and-folder' } }),
      ]);
    }
  });

  it('a 255-byte name passes; 256 bytes of UTF-8 do not', async () => {
    const ok = await validateBundle(writeZip([...goodEntries(), { name: `${'é'.repeat(126)}.js`, data: 'x' }]));
    expect(ids(ok)).not.toContain('path-name-too-long');
    const long = await validateBundle(writeZip([...goodEntries(), { name: `${'é'.repeat(127)}.js`, data: 'x' }]));
    expect(long.problems.find((p) => p.ruleId === 'path-name-too-long')!.data).toEqual({ bytes: 257 });
  });

  it('a real end record behind a fake one in its comment is reported whichever a reader picks', async () => {
    const report = await validateBundle(shape('an end-of-archive signature inside'));
    expect(ids(report)).toContain('archive-ambiguous-end');
    expect(report.ok).toBe(false);
  });

  it('the Go 12449 shape is read as the plain archive it is, and its stray locator reported once', async () => {
    const source = await openZipSource(shape('Go 12449'));
    try {
      expect(source.entries.map((e) => e.path)).toEqual(goodEntries().map((e) => e.name));
      expect(source.findings).toEqual([{ ruleId: 'archive-ambiguous-end', data: expect.objectContaining({ locator: true }) }]);
    } finally {
      await source.close();
    }
  });

  it('an ordinary archive comment is fine', async () => {
    expect(ids(await validateBundle(writeZip(goodEntries(), { comment: Buffer.from('built on CI #42') })))).toEqual([]);
    expect(ids(await validateBundle(writeBytes(buildZip(goodEntries(), { comment: Buffer.from('PK') }))))).toEqual([]);
  });
});
