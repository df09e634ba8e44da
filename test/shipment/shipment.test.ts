import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFolderSource } from '../../src/core/shipment/folder-source.js';
import { shippedManifest } from '../../src/core/manifest/shipped-manifest.js';
import { packFolder } from '../../src/core/pack/pack-folder.js';
import { explainFileSystemError, measureShipment, openShippedFolder, planShipment, readShipped, type Shipment } from '../../src/core/shipment/shipment.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { noise } from '../helpers/noise.js';
import { GOOD_ZIP_NAME, goodFiles, goodManifest, readWithPython, sha256 } from '../pack/helpers.js';

const WITH_SCHEMA = JSON.stringify({ $schema: './node_modules/pipeline-tool/schemas/manifest.schema.json', ...goodManifest }, null, 2);

/** A manifest.json of exactly `size` bytes: the good manifest, padded with spaces inside the object. */
function manifestOfSize(size: number): string {
  const text = JSON.stringify(goodManifest);
  return `${text.slice(0, -1)}${' '.repeat(size - text.length)}}`;
}

describe('planShipment: the manifest that ships', () => {
  it('ships the manifest without $schema and every other file as it is, in the zip and in the sizes', async () => {
    const tool = writeFolder({ ...goodFiles(), 'manifest.json': WITH_SCHEMA });
    const shipped = shippedManifest(Buffer.from(WITH_SCHEMA));
    expect(shipped.length).toBeLessThan(WITH_SCHEMA.length);
    const result = await packFolder(tool, { cwd: tempDir() });
    expect(result.written).toBe(true);
    expect(result.included.find((file) => file.path === 'manifest.json')?.size).toBe(shipped.length);
    const entries = Object.fromEntries(readWithPython(result.outputPath).entries.map((entry) => [entry.name, entry.sha256]));
    expect(entries).toEqual({
      'app.js': sha256(Buffer.from(goodFiles()['app.js']!)),
      'index.html': sha256(Buffer.from(goodFiles()['index.html']!)),
      'manifest.json': sha256(shipped),
      'styles.css': sha256(Buffer.from(goodFiles()['styles.css']!)),
    });
  });

  it('reads a manifest of 64,000 bytes for the zip’s name; a larger one ships whole and names nothing', async () => {
    const atLimit = writeFolder({ ...goodFiles(), 'manifest.json': manifestOfSize(64_000) });
    expect(path.basename((await packFolder(atLimit, { cwd: tempDir(), dryRun: true })).outputPath)).toBe(GOOD_ZIP_NAME);
    const over = writeFolder({ ...goodFiles(), 'manifest.json': manifestOfSize(70_000) });
    const result = await packFolder(over, { cwd: tempDir(), dryRun: true });
    expect(path.basename(result.outputPath)).toBe(`${path.basename(over).toLowerCase()}.zip`);
    expect(result.included.find((file) => file.path === 'manifest.json')?.size).toBe(70_000);
    expect(result.report.problems.map((problem) => problem.ruleId)).toContain('manifest-too-large');
  });

  it('gives the short name and version trimmed', async () => {
    const tool = writeFolder(goodFiles({ ...goodManifest, shortName: ' Kitchen\t', version: '\n1.2.0 ' }));
    expect((await planShipment(tool)).names).toEqual({ shortName: 'Kitchen', version: '1.2.0' });
  });
});

describe('planShipment: names and order', () => {
  it('orders the files by the UTF-8 bytes of their NFC names, not by the folder’s own names', async () => {
    const tool = writeFolder({ ...goodFiles(), 'A\u030A.js': 'x', 'B.js': 'x', '\uFF21.js': 'x', '\u{1F600}.js': 'x' });
    const shipment = await planShipment(tool);
    const expected = ['B.js', 'app.js', 'index.html', 'manifest.json', 'styles.css', '\u00C5.js', '\uFF21.js', '\u{1F600}.js'];
    expect(shipment.files.map((file) => file.name)).toEqual(expected);
    const result = await packFolder(tool, { cwd: tempDir() });
    expect(readWithPython(result.outputPath).entries.map((entry) => entry.name)).toEqual(expected);
  });

  it('leaves out its own output when written into a subfolder of the tool', async () => {
    const tool = writeFolder(goodFiles());
    await packFolder('.', { cwd: tool, out: 'releases/' });
    const again = await packFolder('.', { cwd: tool, out: 'releases/', force: true });
    expect(again.excluded).toContainEqual({ path: `releases/${GOOD_ZIP_NAME}`, kind: 'file', reason: 'output-zip' });
  });
});

describe('readShipped: the shipped manifest read as a file would be', () => {
  it('hands over the same chunks and counts as the folder gives for a file with those bytes', async () => {
    const tool = writeFolder({ ...goodFiles(), 'manifest.json': WITH_SCHEMA });
    const shipment = await planShipment(tool);
    const manifest = shipment.files.find((file) => file.name === 'manifest.json')!;
    expect(manifest.content).toBeDefined();
    const copy = writeFolder({ 'manifest.json': manifest.content! });
    const folder = await openFolderSource(copy);
    const size = manifest.size;
    for (const limit of [0, 1, size - 1, size, size + 1]) {
      const shipped: Buffer[] = [];
      const plain: Buffer[] = [];
      const result = await readShipped(shipment, manifest, limit, (chunk) => shipped.push(chunk));
      expect(result).toEqual(await folder.read(folder.entries[0]!, limit, (chunk) => plain.push(chunk)));
      expect(Buffer.concat(shipped)).toEqual(Buffer.concat(plain));
      expect(shipped.every((chunk) => chunk.length > 0)).toBe(true);
    }
  });
});

describe('reading files that change under pack', () => {
  it('names a file that changed size', async () => {
    const tool = writeFolder(goodFiles());
    const packing = packFolder(tool, {
      cwd: tempDir(),
      onProgress: (progress) => {
        if (progress.step === 'compress' && progress.done === 0) writeFileSync(path.join(tool, 'styles.css'), 'body{}');
      },
    });
    await expect(packing).rejects.toMatchObject({
      name: 'UsageError',
      message: 'styles.css changed while it was being read. Wait for the build to finish, then try again.',
    });
  });

  it('names a file that disappeared, with the system’s reason', async () => {
    const tool = writeFolder(goodFiles());
    const gone = path.join(tool, 'styles.css');
    const packing = packFolder(tool, {
      cwd: tempDir(),
      onProgress: (progress) => {
        if (progress.step === 'compress' && progress.done === 0) rmSync(gone);
      },
    });
    await expect(packing).rejects.toMatchObject({ name: 'UsageError', message: expect.stringMatching(new RegExp(`^cannot read ${literal(gone)}: ENOENT: `)) });
  });

  it('explainFileSystemError: only a file system error with a path becomes a usage error', () => {
    const thrown = (error: unknown) => {
      try {
        explainFileSystemError(error as NodeJS.ErrnoException);
      } catch (caught) {
        return caught;
      }
      return undefined;
    };
    const withPath = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', path: '/x/app.js' });
    expect(thrown(withPath)).toMatchObject({ name: 'UsageError', message: 'cannot read /x/app.js: EIO: i/o error, read' });
    const aborted = AbortSignal.abort().reason as Error;
    expect(thrown(aborted)).toBe(aborted);
    const codeOnly = Object.assign(new Error('Z_DATA_ERROR'), { code: 'Z_DATA_ERROR' });
    expect(thrown(codeOnly)).toBe(codeOnly);
    const plain = new Error('plain');
    expect(thrown(plain)).toBe(plain);
    const pathOnly = Object.assign(new Error('odd'), { path: '/x' });
    expect(thrown(pathOnly)).toBe(pathOnly);
  });
});

describe('measureShipment: the zip size without writing it', () => {
  /** The shipment of a small tool with `count` empty files instead of its own. */
  async function withEmptyFiles(count: number): Promise<Shipment> {
    const shipment = await planShipment(writeFolder(goodFiles()));
    const entry = shipment.files[0]!.entry;
    const files = Array.from({ length: count }, (_, i) => ({ name: `f${i}.js`, entry, content: Buffer.alloc(0), size: 0 }));
    return { ...shipment, files };
  }

  it('measures up to 65,535 files, the most a zip without zip64 holds, and no more', async () => {
    const most = await measureShipment(await withEmptyFiles(0xffff));
    expect(most?.size).toBe(0xffff);
    expect([...most!.values()].every((size) => size === 0)).toBe(true);
    expect(await measureShipment(await withEmptyFiles(0x10000))).toBeUndefined();
  });
});

describe('openShippedFolder: the folder as the rules see it', () => {
  it('a folder bundle with the zip’s names and sizes; measured unless told not to', async () => {
    const tool = writeFolder({ ...goodFiles(), 'img/noise.png': noise(3_000) });
    const written = await packFolder(tool, { cwd: tempDir() });
    const measured = await openShippedFolder(tool);
    expect(measured.kind).toBe('folder');
    expect(measured.archiveSize).toBe(written.zipSize);
    expect(measured.entries).toStrictEqual(
      written.included.map((file) => ({ path: file.path, kind: 'file', declaredSize: file.size, readable: true, compressedSize: file.compressedSize })),
    );
    const unmeasured = await openShippedFolder(tool, { measure: false });
    expect('archiveSize' in unmeasured).toBe(false);
    expect(unmeasured.entries).toStrictEqual(written.included.map((file) => ({ path: file.path, kind: 'file', declaredSize: file.size, readable: true })));
    expect((await validateBundle(tool)).kind).toBe('folder');
  });

  it('measured alongside: the source comes at once, and its sizes when `sized` settles, the same as measured first', async () => {
    const tool = writeFolder({ ...goodFiles(), 'img/noise.png': noise(3_000), 'app.js': 'total += 1;\n'.repeat(5_000) });
    const first = await openShippedFolder(tool);
    const alongside = await openShippedFolder(tool, { measure: 'alongside' });
    expect(alongside.sized).toBeInstanceOf(Promise);
    await alongside.sized;
    expect(alongside.archiveSize).toBe(first.archiveSize);
    expect(alongside.entries).toStrictEqual(first.entries);
    expect(first.sized).toBeUndefined();
  });

  it('measured alongside: a file that changes while it is measured fails `sized` as opening would, and validate with it', async () => {
    const tool = writeFolder({ ...goodFiles(), 'app.js': 'total += 1;\n'.repeat(50_000) });
    const source = await openShippedFolder(tool, { measure: 'alongside' });
    // The measurement has opened the file at most: its first read waits for this turn of the event loop.
    writeFileSync(path.join(tool, 'app.js'), 'total += 2;\n');
    await expect(source.sized).rejects.toMatchObject({ name: 'UsageError', message: 'app.js changed while it was being read. Wait for the build to finish, then try again.' });
    const changing = await openShippedFolder(tool, { measure: 'alongside' });
    writeFileSync(path.join(tool, 'app.js'), 'total += 3;\n'.repeat(3));
    await expect(validateBundle(changing)).rejects.toMatchObject({ name: 'UsageError', message: expect.stringMatching(/^app\.js changed while it was being read/) });
  });

  it('a file removed after the walk: the checks reading it say so as a usage error, as measuring does', async () => {
    const tool = writeFolder(goodFiles());
    const gone = path.join(tool, 'app.js');
    const source = await openShippedFolder(tool, { measure: 'alongside' });
    rmSync(gone);
    await expect(validateBundle(source)).rejects.toMatchObject({ name: 'UsageError', message: expect.stringMatching(new RegExp(`^cannot read ${literal(gone)}: ENOENT: `)) });
    await expect(source.sized).rejects.toMatchObject({ name: 'UsageError' });
  });

  it('measured alongside: closing the source gives the measurement up', async () => {
    const tool = writeFolder({ ...goodFiles(), ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`lib/part${i}.js`, 'total += 1;\n'.repeat(20_000)])) });
    const source = await openShippedFolder(tool, { measure: 'alongside' });
    await source.close();
    await expect(source.sized).rejects.toMatchObject({ name: 'AbortError' });
    expect(source.archiveSize).toBeUndefined();
  });

  it('names the largest files by their compressed size when the zip would be too large', async () => {
    const tool = writeFolder({ ...goodFiles(), 'img/photo.png': noise(10_100_000), 'img/small.png': noise(1_000) });
    const report = await validateBundle(tool);
    const problem = report.problems.find((p) => p.ruleId === 'bundle-size');
    expect(problem?.message).toMatch(/ Largest entries \(compressed\): img\/photo\.png 10,100,000 bytes, img\/small\.png 1,000 bytes, /);
  });

  it('opened for the verdict alone: not measured while its files, stored as they are, fit under the limit', async () => {
    const small = await openShippedFolder(writeFolder(goodFiles()), { measure: 'for-verdict' });
    expect(small.archiveSize).toBeUndefined();
    expect(small.sized).toBeUndefined();
    expect(small.entries.filter((entry) => entry.compressedSize !== undefined)).toEqual([]);
    // Over the limit as they are, far under it deflated: measured, and within the limit.
    const spaces = await openShippedFolder(writeFolder({ ...goodFiles(), 'lib/spaces.js': `/*${' '.repeat(10_100_000)}*/\n` }), { measure: 'for-verdict' });
    await spaces.sized;
    expect(spaces.archiveSize).toBeGreaterThan(0);
    expect(spaces.archiveSize).toBeLessThan(100_000);
    expect((await validateBundle(spaces)).problems.filter((problem) => problem.ruleId === 'bundle-size')).toEqual([]);
  });

  it('opened for the verdict alone: measured once the zip, every file stored, would pass the limit, and judged by what it measures', async () => {
    // A photo that deflate cannot shrink, sized so that the zip with every file stored is 10,000,000 bytes.
    const files = (photo: number) => ({ ...goodFiles(), 'img/photo.png': noise(photo) });
    const probe = await openShippedFolder(writeFolder(files(1_000)), { measure: false });
    const records = probe.entries.reduce((sum, entry) => sum + 30 + 46 + 2 * Buffer.byteLength(entry.path) + entry.declaredSize, 22);
    const atLimit = 1_000 + 10_000_000 - records;
    const bundleSize = async (folder: string) => (await validateBundle(folder)).problems.filter((problem) => problem.ruleId === 'bundle-size').length;

    const at = writeFolder(files(atLimit));
    expect((await openShippedFolder(at, { measure: 'for-verdict' })).archiveSize).toBeUndefined();
    const zipped = (await openShippedFolder(at)).archiveSize!;
    expect(zipped).toBeLessThanOrEqual(10_000_000);
    expect(await bundleSize(at)).toBe(0);

    // A byte more: measured; the other files deflate, so the zip is still within the limit.
    const over = writeFolder(files(atLimit + 1));
    const measured = await openShippedFolder(over, { measure: 'for-verdict' });
    await measured.sized;
    expect(measured.archiveSize).toBe(zipped + 1);
    expect(await bundleSize(over)).toBe(0);

    // What the other files save, and a byte more: the zip itself is 10,000,001 bytes.
    const past = writeFolder(files(atLimit + (10_000_000 - zipped) + 1));
    const tooLarge = await openShippedFolder(past, { measure: 'for-verdict' });
    await tooLarge.sized;
    expect(tooLarge.archiveSize).toBe(10_000_001);
    expect(await bundleSize(past)).toBe(1);
  });

  it('reads only its own entries', async () => {
    const source = await openShippedFolder(writeFolder(goodFiles()), { measure: false });
    const stranger = { path: 'app.js', kind: 'file' as const, declaredSize: 31, readable: true };
    expect(() => source.read(stranger, 100, () => {})).toThrow('not an entry of this bundle: app.js');
  });
});

describe('findings from the folder walk', () => {
  const latin1 = (name: string) => Buffer.from(name, 'latin1');

  it('count only for files that ship, under their NFC names', async () => {
    const left = writeFolder(goodFiles());
    writeFileSync(Buffer.concat([Buffer.from(`${left}/`), latin1('caf\u00e9.txt')]), 'x');
    expect((await validateBundle(left)).problems).toEqual([]);
    expect((await packFolder(left, { cwd: tempDir() })).written).toBe(true);

    const shipped = writeFolder(goodFiles());
    writeFileSync(Buffer.concat([Buffer.from(`${shipped}/`), Buffer.from('cafe\u0301', 'utf8'), Buffer.from([0xff]), Buffer.from('.js')]), 'x');
    const problems = (await validateBundle(shipped)).problems;
    expect(problems.map((p) => [p.ruleId, p.file])).toEqual([['path-encoding', 'caf\u00e9\uFFFD.js']]);
  });

  it('count for a folder whose name is not UTF-8 when a file inside it ships: pack writes nothing', async () => {
    const tool = writeFolder(goodFiles());
    const folder = Buffer.concat([Buffer.from(`${tool}/js/`), latin1('donn\u00e9es')]);
    mkdirSync(folder, { recursive: true });
    writeFileSync(Buffer.concat([folder, Buffer.from('/app.js')]), 'x');
    expect((await validateBundle(tool)).problems.map((p) => [p.ruleId, p.file])).toEqual([['path-encoding', 'js/donn\uFFFDes']]);
    const cwd = tempDir();
    const result = await packFolder(tool, { cwd });
    expect(result).toMatchObject({ ok: false, written: false, stage: 'files' });
    expect(result.report.problems.map((p) => p.ruleId)).toEqual(['path-encoding']);
    expect(readdirSync(cwd)).toEqual([]);

    // Nothing ships from inside: nothing to report.
    const leftOut = writeFolder(goodFiles());
    const notes = Buffer.concat([Buffer.from(`${leftOut}/`), latin1('r\u00e9sum\u00e9')]);
    mkdirSync(notes);
    writeFileSync(Buffer.concat([notes, Buffer.from('/notes.txt')]), 'x');
    expect((await validateBundle(leftOut)).problems).toEqual([]);
  });

  it('count for the folders a shipped file is in, not for a left-out file whose name begins one of them', async () => {
    const tool = writeFolder(goodFiles());
    const folder = Buffer.concat([Buffer.from(`${tool}/`), latin1('r\u00e9sum\u00e9s')]);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/a.js')]), 'shipped');
    writeFileSync(Buffer.concat([Buffer.from(`${tool}/`), latin1('r\u00e9sum\u00e9')]), 'left out: no extension');
    expect((await validateBundle(tool)).problems.map((p) => [p.ruleId, p.file])).toEqual([['path-encoding', 'r\uFFFDsum\uFFFDs']]);
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

