import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import type { BundleSource } from '../../src/core/shipment/source.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';

const ids = (report: { problems: { ruleId: string }[] }) => report.problems.map((p) => p.ruleId);

/** Wraps a source so a test can see how many bytes reading really produced. */
function counting(source: BundleSource) {
  const counter = { bytes: 0 };
  const wrapped: BundleSource = {
    ...source,
    findings: source.findings,
    read: (entry, limit, sink) => source.read(entry, limit, (chunk) => ((counter.bytes += chunk.length), sink(chunk))),
  };
  return { source: wrapped, counter };
}

describe('archives written by real zip tools are clean', () => {
  it('Info-ZIP zip', async () => {
    const folder = writeFolder(goodFiles());
    const zip = path.join(tempDir(), 'info-zip.zip');
    execFileSync('zip', ['-q', '-X', '-r', zip, '.'], { cwd: folder });
    expect(ids(await validateBundle(zip))).toEqual([]);
  });

  it("Python's zipfile, deflated, with a non-ASCII name", async () => {
    const folder = writeFolder({ ...goodFiles(), 'café.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    const zip = path.join(tempDir(), 'python.zip');
    execFileSync('python3', [
      '-c',
      'import sys, os, zipfile\nwith zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:\n  for n in sorted(os.listdir(sys.argv[1])): z.write(os.path.join(sys.argv[1], n), n)',
      folder,
      zip,
    ]);
    expect(ids(await validateBundle(zip))).toEqual([]);
  });
});

describe('Zip64', () => {
  it("an archive Python's zipfile writes with force_zip64 is valid", async () => {
    const folder = writeFolder(goodFiles());
    const zip = path.join(tempDir(), 'zip64.zip');
    execFileSync('python3', [
      '-c',
      'import sys, os, zipfile\nwith zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:\n  for n in sorted(os.listdir(sys.argv[1])):\n    with z.open(n, "w", force_zip64=True) as w: w.write(open(os.path.join(sys.argv[1], n), "rb").read())',
      folder,
      zip,
    ]);
    expect(ids(await validateBundle(zip))).toEqual([]);
  });

  it("Info-ZIP's zip -fz (Zip64 forced, one size deferred per record) is valid", async () => {
    const folder = writeFolder(goodFiles());
    const zip = path.join(tempDir(), 'zip-fz.zip');
    execFileSync('zip', ['-q', '-X', '-fz', '-r', zip, '.'], { cwd: folder });
    expect(ids(await validateBundle(zip))).toEqual([]);
  });

  it('a Zip64 marker in the central directory with no Zip64 field is corrupt', async () => {
    const entries = goodEntries();
    entries[0] = { ...entries[0]!, central: { localOffset: 0xffffffff } };
    const report = await validateBundle(writeZip(entries));
    expect(ids(report)).toEqual(['archive-corrupt']);
    expect(report.problems[0]!.file).toBe('manifest.json');
  });
});

describe('data descriptors (streaming writers such as macOS Archive Utility)', () => {
  it('accepts descriptors with and without their signature', async () => {
    const entries = goodEntries().map((e, i) => ({ ...e, descriptor: { signature: i % 2 === 0 } }));
    expect(ids(await validateBundle(writeZip(entries)))).toEqual([]);
  });

  it('reports a descriptor whose CRC disagrees with the central directory', async () => {
    const entries = goodEntries().map((e, i) => (i === 1 ? { ...e, descriptor: { signature: true, crc: 7 } } : e));
    const report = await validateBundle(writeZip(entries));
    expect(report.problems).toContainEqual(expect.objectContaining({ ruleId: 'archive-crc-mismatch', file: 'index.html', data: expect.objectContaining({ actual: '00000007', where: 'data descriptor' }) }));
    expect(ids(report)).not.toContain('archive-header-mismatch');
  });
});

describe('zip bombs', () => {
  it('does not read a script past the budget as code: the bundle fails on its size alone', async () => {
    const bomb = Buffer.concat([Buffer.from('alert("x");\n'), Buffer.alloc(60_000_000, 0x20)]);
    const report = await validateBundle(writeZip([...goodEntries(), { name: 'bomb.js', data: bomb }]));
    expect(ids(report)).toEqual(['unpacked-size']);
    // Within the budget, the same script is read as code.
    const small = await validateBundle(writeZip([...goodEntries(), { name: 'small.js', data: bomb.subarray(0, 1000) }]));
    expect(ids(small)).toEqual(['dialog-call']);
  });

  it('stops inflating an honest 200 MB entry once the 50 MB budget is spent', async () => {
    const zip = writeZip([...goodEntries(), { name: 'bomb.js', data: Buffer.alloc(200_000_000) }]);
    const { source, counter } = counting(await openZipSource(zip));
    const report = await validateBundle(source);
    await source.close();
    expect(ids(report)).toEqual(['unpacked-size']);
    expect(report.problems[0]!.data).toMatchObject({ complete: false, limit: 50_000_000 });
    expect(counter.bytes).toBeLessThanOrEqual(50_000_000);
  });

  it('judges an entry that declares more than the whole budget by its header, without inflating it', async () => {
    const honest = { name: 'bomb.js', data: Buffer.alloc(200_000_000) };
    const lying = { name: 'bomb.js', data: 'small', central: { uncompressedSize: 60_000_000 }, local: { uncompressedSize: 60_000_000 } };
    for (const bomb of [honest, lying]) {
      const { source, counter } = counting(await openZipSource(writeZip([...goodEntries(), bomb])));
      const report = await validateBundle(source);
      await source.close();
      expect(ids(report)).toEqual(['unpacked-size']);
      expect(counter.bytes).toBe(Buffer.byteLength(goodEntries().map((e) => e.data as string).join('')));
      const data = report.problems[0]!.data as { largest: { path: string; declared?: boolean }[] };
      expect(data.largest[0]).toMatchObject({ path: 'bomb.js', declared: true });
      expect(report.problems[0]!.message).toContain('declared by its header, not inflated');
    }
  });

  it('says how many files were not checked, in the singular for one', async () => {
    const lying = (name: string) => ({ name, data: 'small', central: { uncompressedSize: 60_000_000 }, local: { uncompressedSize: 60_000_000 } });
    const one = await validateBundle(writeZip([...goodEntries(), lying('a.png')]));
    expect(one.problems[0]!.message).toContain('inflating stopped there, and 1 file was not checked. Largest files: a.png 60,000,000 bytes (declared by its header, not inflated), ');
    const two = await validateBundle(writeZip([...goodEntries(), lying('a.png'), lying('b.png')]));
    expect(two.problems[0]!.message).toBe(
      "The files unpack to more than 50,000,000 bytes, the marketplace's limit (50 MB read as decimal); inflating stopped there, and 2 files were not checked. " +
        'Largest files: a.png 60,000,000 bytes (declared by its header, not inflated), b.png 60,000,000 bytes (declared by its header, not inflated), manifest.json 188 bytes, index.html 125 bytes, styles.css 34 bytes.',
    );
    // Only the first is counted: the total stays what was read plus that one declared size.
    expect(two.problems[0]!.data).toMatchObject({ size: 60_000_000 + 188 + 125 + 34 + 31, unread: 2 });
  });

  it('names a file left unread after inflating used up the budget, by its declared size', async () => {
    const report = await validateBundle(
      writeZip([...goodEntries(), { name: 'big.png', data: Buffer.alloc(50_000_000) }, { name: 'later.png', data: Buffer.alloc(3_000) }]),
    );
    expect(report.problems.map((problem) => problem.message)).toEqual([
      "The files unpack to more than 50,000,000 bytes, the marketplace's limit (50 MB read as decimal); inflating stopped there, and 1 file was not checked. " +
        'Largest files: big.png 50,000,000 bytes, later.png 3,000 bytes (declared by its header, not inflated), manifest.json 188 bytes, index.html 125 bytes, styles.css 34 bytes.',
    ]);
  });

  it('names no unchecked file when the file that uses up the budget is the last', async () => {
    const report = await validateBundle(writeZip([...goodEntries(), { name: 'big.png', data: Buffer.alloc(50_000_000) }]));
    expect(report.problems.map((problem) => problem.message)).toEqual([
      "The files unpack to more than 50,000,000 bytes, the marketplace's limit (50 MB read as decimal); inflating stopped there. " +
        'Largest files: big.png 50,000,000 bytes, manifest.json 188 bytes, index.html 125 bytes, styles.css 34 bytes, app.js 31 bytes.',
    ]);
  });

  it('a manifest that declares more than the budget is too large, not missing', async () => {
    const entries = goodEntries();
    entries[0] = { ...entries[0]!, central: { uncompressedSize: 60_000_000 }, local: { uncompressedSize: 60_000_000 } };
    const report = await validateBundle(writeZip(entries));
    expect(ids(report)).toContain('manifest-too-large');
    expect(ids(report)).not.toContain('manifest-missing');
  });

  it('does not trust headers that understate: inflation stops one byte past the declared size', async () => {
    // 1,000 entries each claiming 10 bytes but inflating to 1 MB: a 1 GB bomb behind small headers.
    const payload = zlib.deflateRawSync(Buffer.alloc(1_000_000));
    const liars = Array.from({ length: 1000 }, (_, i) => ({ name: `x${i}.js`, payload, central: { uncompressedSize: 10 }, local: { uncompressedSize: 10 } }));
    const { source, counter } = counting(await openZipSource(writeZip([...goodEntries(), ...liars])));
    const report = await validateBundle(source);
    await source.close();
    expect(report.problems.filter((p) => p.ruleId === 'archive-size-mismatch')).toHaveLength(1000);
    expect(counter.bytes).toBeLessThan(1_000_000);
  });

  it('counts overlapping entries as what they inflate to, and flags the overlap', async () => {
    // Images, so that the time goes to inflating, not to the code checks.
    const data = Buffer.alloc(20_000_000);
    const big = { name: 'a.png', data, payload: zlib.deflateRawSync(data) };
    const copies = Array.from({ length: 4 }, (_, i) => ({ ...big, name: `copy${i}.png`, central: { localOffset: 0, name: Buffer.from(`copy${i}.png`) } }));
    const zip = writeZip([big, ...copies, ...goodEntries()]);
    const report = await validateBundle(zip);
    expect(ids(report)).toContain('archive-overlap');
    expect(ids(report)).toContain('unpacked-size');
  });
});

describe('a broken archive is reported once, for what it is', () => {
  const manifestRules = (report: { problems: { ruleId: string }[] }) => report.problems.map((p) => p.ruleId).filter((id) => id.startsWith('manifest-'));

  it('no manifest finding when the entries cannot be listed at all', async () => {
    for (const zip of [writeZip(goodEntries(), { prefix: Buffer.alloc(102, 0x58) }), writeZip(goodEntries(), { cdOffset: 0xffff })]) {
      const report = await validateBundle(zip);
      expect(ids(report).some((id) => id.startsWith('archive-'))).toBe(true);
      expect(manifestRules(report)).toEqual([]);
    }
    const notAZip = writeFolder({ 'manifest.json': '{}' });
    const report = await validateBundle(path.join(notAZip, 'manifest.json'));
    expect(ids(report)).toEqual(['archive-not-zip']);
  });

  it('no manifest-syntax when the manifest is encrypted, in another method, or its data is corrupt', async () => {
    const others = goodEntries().filter((e) => e.name !== 'manifest.json');
    const manifest = goodEntries().find((e) => e.name === 'manifest.json')!;
    const cases = [
      { ...manifest, flags: 1 },
      { ...manifest, method: 12 },
      { ...manifest, payload: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]) },
    ];
    for (const broken of cases) {
      const report = await validateBundle(writeZip([broken, ...others]));
      expect(ids(report).some((id) => id.startsWith('archive-'))).toBe(true);
      expect(manifestRules(report)).toEqual([]);
    }
  });
});

describe('large entries', () => {
  it('streams a big, poorly compressible entry without piling up listeners', async () => {
    // 9 MB of noise deflates to about as much: dozens of pieces, each waiting for the inflater.
    const data = Buffer.alloc(9_000_000);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 7)) >>> 0, i);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const report = await validateBundle(writeZip([...goodEntries(), { name: 'big.js', data }]));
      await new Promise((resolve) => setImmediate(resolve));
      // Noise is no JavaScript: read whole, it is a syntax error, and nothing else.
      expect(ids(report)).toEqual(['js-syntax']);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});

describe('malformed structures are findings, never crashes', () => {
  const good = () => writeZip(goodEntries());

  it.each([
    ['empty file', Buffer.alloc(0)],
    ['just an end record', Buffer.from('504b0506' + '00'.repeat(18), 'hex')],
    ['end record claiming a directory past the end', Buffer.from('504b0506' + '0000000001000100' + 'ffffff00' + '00000000' + '0000', 'hex')],
  ])('%s', async (_name, bytes) => {
    const file = path.join(tempDir(), 'x.zip');
    writeFileSync(file, bytes);
    const report = await validateBundle(file);
    expect(report.ok).toBe(false);
  });

  it('every truncation of a valid zip is reported, not thrown', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(good());
    const dir = tempDir();
    for (let cut = 0; cut < bytes.length; cut += 7) {
      const file = path.join(dir, `cut-${cut}.zip`);
      writeFileSync(file, bytes.subarray(0, cut));
      const report = await validateBundle(file);
      expect(report.ok, `cut at ${cut}`).toBe(false);
    }
  });

  it('an entry whose local header lies past the end of the file', async () => {
    const zip = writeZip([...goodEntries(), { name: 'far.js', data: 'x', central: { localOffset: 0x7fffffff } }]);
    expect(ids(await validateBundle(zip))).toContain('archive-truncated');
  });
});

describe('folders', () => {
  it('leaves a symlink out, as pack does, and never follows it out of the folder', async () => {
    const outside = writeFolder({ 'secret.js': 'x'.repeat(60_000_000 / 1000) });
    const folder = writeFolder(goodFiles());
    symlinkSync(path.join(outside, 'secret.js'), path.join(folder, 'link.js'));
    symlinkSync(outside, path.join(folder, 'linked-folder'));
    const report = await validateBundle(folder);
    expect(ids(report)).toEqual([]);
    expect(report.excluded).toEqual([
      { path: 'link.js', kind: 'symlink', reason: 'symlink' },
      { path: 'linked-folder', kind: 'symlink', reason: 'symlink' },
    ]);
  });

  it('counts sizes from the file system and applies the unpacked limit, naming the five largest files', async () => {
    const folder = writeFolder(goodFiles());
    mkdirSync(path.join(folder, 'img'));
    writeFileSync(path.join(folder, 'img', 'huge.png'), Buffer.alloc(50_000_001));
    writeFileSync(path.join(folder, 'img', 'dot.png'), 'x');
    const report = await validateBundle(folder);
    expect(ids(report)).toEqual(['unpacked-size']);
    expect(report.problems[0]!.data).toMatchObject({ complete: true });
    expect(report.problems[0]!.message).toBe(
      'The files unpack to 50,000,380 bytes; the marketplace accepts at most 50,000,000 bytes (50 MB read as decimal, the stricter reading). ' +
        'Largest files: img/huge.png 50,000,001 bytes, manifest.json 188 bytes, index.html 125 bytes, styles.css 34 bytes, app.js 31 bytes.',
    );
  });

  it('gives the real total and sizes of a folder past the limit, even for files read after the budget is spent', async () => {
    const files = goodFiles();
    const folder = writeFolder(files);
    writeFileSync(path.join(folder, 'big.js'), Buffer.alloc(60_000_000, 0x20));
    const report = await validateBundle(folder);
    expect(ids(report)).toEqual(['unpacked-size']);
    const total = 60_000_000 + Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    const data = report.problems[0]!.data as { size: number; complete: boolean; largest: { path: string; bytes: number }[] };
    expect(data).toMatchObject({ size: total, complete: true });
    expect(data.largest[0]).toEqual({ path: 'big.js', bytes: 60_000_000 });
    expect(data.largest).toContainEqual({ path: 'index.html', bytes: Buffer.byteLength(files['index.html']!) });
    expect(report.problems[0]!.message).toContain('big.js 60,000,000 bytes');
  });

  it("leaves the dev server's state folder out of a folder, as pack does, but not out of a zip", async () => {
    const state = { '.pipeline-tool/settings.json': '{}', '.pipeline-tool/.gitignore': '*\n' };
    const folder = await validateBundle(writeFolder({ ...goodFiles(), ...state }));
    expect(ids(folder)).toEqual([]);
    expect(folder.excluded).toEqual([{ path: '.pipeline-tool/', kind: 'directory', reason: 'dot-file', detail: 'a hidden file or folder' }]);
    const zipped = await validateBundle(writeZip([...goodEntries(), { name: '.pipeline-tool/settings.json', data: Buffer.from('{}') }]));
    expect(ids(zipped)).toContain('junk-file');
  });

  it('reports a name that is not valid UTF-8', async () => {
    const folder = writeFolder(goodFiles());
    writeFileSync(Buffer.concat([Buffer.from(folder + '/'), Buffer.from([0x62, 0xff, 0x2e, 0x6a, 0x73])]), 'x');
    expect(ids(await validateBundle(folder))).toContain('path-encoding');
  });
});
