import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder, type PackProgress, type PackResult } from '../../src/core/pack/pack-folder.js';
import { DestinationExistsError } from '../../src/core/pack/destination.js';
import { COLLECT_EVERY } from '../../src/core/pack/write-zip.js';
import { defaultZipName, safeFileName } from '../../src/core/shipment/zip-name.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { noise } from '../helpers/noise.js';
import { GOOD_ZIP_NAME, goodFiles, goodManifest, openFileCount, sha256, tempFilesIn } from './helpers.js';

/** A tool folder and a separate working folder, so outputs never land inside the tool by accident. */
function setup(files: Record<string, string | Buffer> = goodFiles()) {
  return { tool: writeFolder(files), cwd: tempDir() };
}

const ruleIds = (result: PackResult) => result.report.problems.map((p) => p.ruleId);

describe('packFolder: the result', () => {
  it('writes <shortName>-<version>.zip in the working folder and describes it', async () => {
    const { tool, cwd } = setup({ ...goodFiles(), 'notes.txt': 'x' });
    const result = await packFolder(tool, { cwd });
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    const bytes = readFileSync(zip);
    expect(result).toMatchObject({
      ok: true,
      written: true,
      dryRun: false,
      existed: false,
      stage: 'zip',
      folder: tool,
      outputPath: zip,
      sha256: sha256(bytes),
      zipSize: bytes.length,
      files: 4,
      unpackedSize: Object.values(goodFiles()).reduce((sum, content) => sum + Buffer.byteLength(content), 0),
    });
    // Deflate cannot shrink the two one-line files, so they are stored.
    expect(result.included.map((file) => [file.path, file.method])).toEqual([
      ['app.js', 'store'],
      ['index.html', 'deflate'],
      ['manifest.json', 'deflate'],
      ['styles.css', 'store'],
    ]);
    expect(result.excluded).toEqual([{ path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' }]);
    expect((await validateBundle(zip)).problems).toEqual([]);
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('keeps warnings in the report but still writes', async () => {
    const { tool, cwd } = setup(goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }));
    const result = await packFolder(tool, { cwd });
    expect(result.written).toBe(true);
    expect(ruleIds(result)).toEqual(['manifest-description']);
  });

  it('writes its default name when the short name is a long run of four-byte letters', async () => {
    const letters = '\u{1D49C}'.repeat(64);
    const { tool, cwd } = setup(goodFiles({ ...goodManifest, name: letters, shortName: letters, version: `1.2.0-${'a'.repeat(100)}` }));
    const result = await packFolder(tool, { cwd });
    expect(result.written).toBe(true);
    expect(path.basename(result.outputPath)).toBe(`${'\u{1D49C}'.repeat(30)}-1.2.0-${'a'.repeat(58)}.zip`);
    expect(readdirSync(cwd)).toEqual([path.basename(result.outputPath)]);
  });

  it('stores names in Unicode NFC, sorted by their bytes', async () => {
    const decomposed = 'cafe\u0301.js';
    const { tool, cwd } = setup({ ...goodFiles(), [decomposed]: 'x', 'Zed.js': 'z' });
    const result = await packFolder(tool, { cwd });
    expect(result.included.map((file) => file.path)).toEqual(['Zed.js', 'app.js', 'caf\u00e9.js', 'index.html', 'manifest.json', 'styles.css']);
  });
});

describe('packFolder: where the zip goes', () => {
  it('-o: a file path, an existing folder, or a path ending in a slash (created)', async () => {
    const { tool, cwd } = setup();
    mkdirSync(path.join(cwd, 'existing'));
    writeFileSync(path.join(cwd, 'plain'), 'not a folder');
    expect((await packFolder(tool, { cwd, out: 'dist' })).outputPath).toBe(path.join(cwd, 'dist', GOOD_ZIP_NAME));
    expect(existsSync(path.join(cwd, 'dist', GOOD_ZIP_NAME))).toBe(true);
    expect((await packFolder(tool, { cwd, out: 'releases/v1.2' })).outputPath).toBe(path.join(cwd, 'releases', 'v1.2', GOOD_ZIP_NAME));
    expect((await packFolder(tool, { cwd, out: 'Named.ZIP' })).outputPath).toBe(path.join(cwd, 'Named.ZIP'));
    // pack writes zips only: a file under another name is never replaced, not even with force.
    for (const out of ['plain', path.join(tool, 'app.js')]) {
      await expect(packFolder(tool, { cwd, out, force: true })).rejects.toThrow(/is not a \.zip; pack writes only \.zip files/);
    }
    expect(readFileSync(path.join(cwd, 'plain'), 'utf8')).toBe('not a folder');
    await expect(packFolder(tool, { cwd, out: 'plain/inside.zip' })).rejects.toThrow(/cannot create the folder .*plain: a file is in the way on that path\./);
    expect(readFileSync(path.join(tool, 'app.js'), 'utf8')).toBe(goodFiles()['app.js']);
    expect((await packFolder(tool, { cwd, out: 'named.zip' })).outputPath).toBe(path.join(cwd, 'named.zip'));
    expect((await packFolder(tool, { cwd, out: 'existing' })).outputPath).toBe(path.join(cwd, 'existing', GOOD_ZIP_NAME));
    expect((await packFolder(tool, { cwd, out: 'new/deeper/' })).outputPath).toBe(path.join(cwd, 'new', 'deeper', GOOD_ZIP_NAME));
    expect(existsSync(path.join(cwd, 'new', 'deeper', GOOD_ZIP_NAME))).toBe(true);
  });

  it('makes the default name safe, and falls back to the folder name without a usable manifest', () => {
    expect(defaultZipName('Kitchen Estimator', '1.0.0+build.5', 'x')).toBe('kitchen-estimator-1.0.0-build.5.zip');
    expect(defaultZipName('../../etc/passwd', '1.0.0', 'x')).toBe('etc-passwd-1.0.0.zip');
    expect(defaultZipName('日本語', '2.0.0', 'my-tool')).toBe('日本語-2.0.0.zip');
    expect(defaultZipName('🔧🔧', '2.0.0', 'my-tool')).toBe('my-tool-2.0.0.zip');
    expect(defaultZipName(undefined, undefined, 'my tool')).toBe('my-tool.zip');
    expect(defaultZipName('Kitchen', undefined, 'my-tool')).toBe('my-tool.zip');
    expect(defaultZipName(undefined, undefined, '...')).toBe('tool.zip');
    expect(safeFileName('.hidden')).toBe('hidden');
  });

  it('keeps the letters of every script in the name, in NFC, and replaces what a file system refuses', () => {
    const nfc = 'Caf\u00e9';
    expect(defaultZipName(nfc, '1.0.0', 'x')).toBe('café-1.0.0.zip');
    // Typed on a keyboard that decomposes: the same name, byte for byte.
    expect(Buffer.from(defaultZipName('Cafe\u0301', '1.0.0', 'x'))).toEqual(Buffer.from(`${nfc.toLowerCase()}-1.0.0.zip`));
    expect(defaultZipName('Ölçüm Łódź Ωμέγα', '2.0.0', 'x')).toBe('ölçüm-łódź-ωμέγα-2.0.0.zip');
    expect(safeFileName('a<b>c:d"e/f\\g|h?i*j')).toBe('a-b-c-d-e-f-g-h-i-j');
    // Invisible and direction-changing characters would make one name look like another.
    expect(safeFileName('evil\u202Egpj.exe\u200B')).toBe('evil-gpj.exe');
    expect(safeFileName('tab\there\u0000')).toBe('tab-here');
    expect(safeFileName('trailing dots...')).toBe('trailing-dots');
    expect([...safeFileName('é'.repeat(200))]).toHaveLength(60);
    expect(safeFileName('a'.repeat(65))).toBe('a'.repeat(64));
    // Letters of four bytes each: the byte cap ends the part first, on a whole character.
    expect(safeFileName('\u{1D49C}'.repeat(64))).toBe('\u{1D49C}'.repeat(30));
    expect(safeFileName(`${'é'.repeat(58)}\u{1D49C}\u{1D49C}`)).toBe(`${'é'.repeat(58)}\u{1D49C}`);
    expect(safeFileName(`${'é'.repeat(59)}\u{1D49C}`)).toBe('é'.repeat(59));
    const longest = defaultZipName('\u{1D49C}'.repeat(64), `1.0.0-${'\u{1D49C}'.repeat(64)}`, 'x');
    expect(Buffer.byteLength(longest)).toBeLessThanOrEqual(255);
    expect(longest).toBe(`${'\u{1D49C}'.repeat(30)}-1.0.0-${'\u{1D49C}'.repeat(28)}.zip`);
    // Windows cannot create a file named after a device, whatever its extension.
    expect(defaultZipName(undefined, undefined, 'con')).toBe('con_.zip');
    expect(defaultZipName(undefined, undefined, 'LPT1')).toBe('lpt1_.zip');
    expect(defaultZipName('CON', '1.0.0', 'x')).toBe('con-1.0.0.zip');
    // Lower case for the name, never for the version, whose pre-release tags differ by case.
    expect(defaultZipName('Kitchen', '1.0.0-RC.1', 'x')).toBe('kitchen-1.0.0-RC.1.zip');
  });

  it('never packs its own output when it writes inside the folder', async () => {
    const tool = writeFolder(goodFiles());
    const first = await packFolder('.', { cwd: tool });
    expect(first.outputPath).toBe(path.join(tool, GOOD_ZIP_NAME));
    const bytes = readFileSync(first.outputPath);
    const second = await packFolder('.', { cwd: tool, force: true });
    expect(second.excluded).toEqual([{ path: GOOD_ZIP_NAME, kind: 'file', reason: 'output-zip' }]);
    expect(readFileSync(second.outputPath).equals(bytes)).toBe(true);
    expect(tempFilesIn(tool)).toEqual([]);
  });
});

describe('packFolder: never leaves a bad or partial zip', () => {
  it('writes nothing for a folder that fails the rules checked on its zip', async () => {
    const { tool, cwd } = setup(goodFiles({ ...goodManifest, version: '1.0' }));
    const result = await packFolder(tool, { cwd });
    expect(result).toMatchObject({ ok: false, written: false, stage: 'zip' });
    expect(ruleIds(result)).toEqual(['manifest-version']);
    expect(result.report).toMatchObject({ bundle: tool, kind: 'folder' });
    expect(existsSync(path.join(cwd, 'Kitchen-1.0.zip'))).toBe(false);
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('stops before compressing when the files alone exceed a limit', async () => {
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 200; i++) files[`js/chunk-${i}.js`] = `export default ${i};\n`;
    const { tool, cwd } = setup(files);
    const steps: string[] = [];
    const result = await packFolder(tool, { cwd, onProgress: (progress) => steps.push(progress.step) });
    expect(result).toMatchObject({ ok: false, written: false, stage: 'files', files: 204 });
    expect(ruleIds(result)).toEqual(['file-count']);
    expect(steps).not.toContain('compress');
  });

  it('stops before compressing on a name that is not UTF-8, which a zip could not carry unchanged', async () => {
    const { tool, cwd } = setup();
    writeFileSync(Buffer.concat([Buffer.from(`${tool}/`), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6a, 0x73])]), 'x'); // "caf\xe9.js" in Latin-1
    const result = await packFolder(tool, { cwd });
    expect(result).toMatchObject({ ok: false, written: false, stage: 'files' });
    expect(ruleIds(result)).toEqual(['path-encoding']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('checks the finished zip too: over 10,000,000 bytes compressed is refused after writing it', async () => {
    const { randomBytes } = await import('node:crypto');
    const { tool, cwd } = setup({ ...goodFiles(), 'img/photo.png': randomBytes(10_100_000) });
    const result = await packFolder(tool, { cwd });
    expect(result).toMatchObject({ ok: false, written: false, stage: 'zip' });
    expect(result.zipSize).toBeGreaterThan(10_000_000);
    expect(ruleIds(result)).toEqual(['bundle-size']);
    expect(existsSync(result.outputPath)).toBe(false);
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('refuses to replace an existing file without force, and replaces it atomically with force', async () => {
    const { tool, cwd } = setup();
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');
    await expect(packFolder(tool, { cwd })).rejects.toMatchObject({ name: 'UsageError', destination: zip });
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    const result = await packFolder(tool, { cwd, force: true });
    expect(result).toMatchObject({ written: true, existed: true });
    expect(readFileSync(zip).subarray(0, 2).toString()).toBe('PK');
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('leaves an existing file untouched when the new bundle fails, even with force', async () => {
    const { tool, cwd } = setup(goodFiles({ ...goodManifest, entry: 'missing.html' }));
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');
    const result = await packFolder(tool, { cwd, force: true });
    expect(result.written).toBe(false);
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('removes its temporary file when aborted mid-write, and leaves the old file alone', async () => {
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 30; i++) files[`js/chunk-${i}.js`] = `let v${i} = ${i};\n`.repeat(5_000);
    const { tool, cwd } = setup(files);
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');
    const controller = new AbortController();
    const packing = packFolder(tool, {
      cwd,
      force: true,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.step === 'compress' && progress.done === 3) controller.abort();
      },
    });
    await expect(packing).rejects.toMatchObject({ name: 'AbortError' });
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('stops with a usage error when a file changes while it is packed', async () => {
    const { tool, cwd } = setup();
    const packing = packFolder(tool, {
      cwd,
      onProgress: (progress) => {
        if (progress.step === 'compress' && progress.done === 0) appendFileSync(path.join(tool, 'styles.css'), '/* more */');
      },
    });
    await expect(packing).rejects.toMatchObject({ name: 'UsageError' });
    expect(existsSync(path.join(cwd, GOOD_ZIP_NAME))).toBe(false);
    expect(tempFilesIn(cwd)).toEqual([]);
  });
});

describe('packFolder: pointing at the wrong folder', () => {
  it('names the build output that holds the manifest', async () => {
    const project = writeFolder({ 'package.json': '{}', 'src/main.ts': '', ...prefix('www/', goodFiles()), ...prefix('dist/', goodFiles()) });
    const error = await packFolder(project, { cwd: tempDir() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'UsageError', candidates: [path.join(project, 'dist'), path.join(project, 'www')] });
  });

  it('leaves a folder with no manifest anywhere to the rules', async () => {
    const { tool, cwd } = setup({ 'index.html': '<!doctype html>' });
    const result = await packFolder(tool, { cwd });
    expect(ruleIds(result)).toContain('manifest-missing');
    expect(result.written).toBe(false);
  });

  it('refuses a path that is missing or not a folder', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'bundle.zip'), 'PK');
    await expect(packFolder('nowhere', { cwd })).rejects.toMatchObject({ name: 'UsageError' });
    await expect(packFolder('bundle.zip', { cwd })).rejects.toMatchObject({ name: 'UsageError' });
  });
});

describe('packFolder: dry run', () => {
  it('selects and checks, measures the zip, but writes nothing', async () => {
    const { tool, cwd } = setup({ ...goodFiles(), 'a.js.map': '{}' });
    const result = await packFolder(tool, { cwd, dryRun: true });
    expect(result).toMatchObject({ ok: true, dryRun: true, written: false, stage: 'files', files: 4 });
    const real = await packFolder(tool, { cwd: tempDir() });
    expect(result.zipSize).toBe(real.zipSize);
    expect(result.excluded).toEqual([{ path: 'a.js.map', kind: 'file', reason: 'source-map' }]);
    expect(existsSync(result.outputPath)).toBe(false);
    expect(tempFilesIn(cwd)).toEqual([]);
  });
});

function prefix(folder: string, files: Record<string, string | Buffer>): Record<string, string | Buffer> {
  return Object.fromEntries(Object.entries(files).map(([name, content]) => [folder + name, content]));
}

describe('packFolder: what it reports while it works', () => {
  it('selects, compresses each file in order, then checks the zip', async () => {
    const { tool, cwd } = setup();
    const steps: PackProgress[] = [];
    await packFolder(tool, { cwd, onProgress: (progress) => steps.push(progress) });
    expect(steps).toEqual([
      { step: 'select' },
      { step: 'compress', done: 0, total: 4 },
      { step: 'compress', done: 1, total: 4 },
      { step: 'compress', done: 2, total: 4 },
      { step: 'compress', done: 3, total: 4 },
      { step: 'compress', done: 4, total: 4 },
      { step: 'check-zip' },
    ]);
  });

  it('collects garbage, when given the means, once the zip is written and before it is checked, for files worth it', async () => {
    const big = setup({ ...goodFiles(), 'data.json': JSON.stringify('x'.repeat(COLLECT_EVERY)) });
    const steps: string[] = [];
    await packFolder(big.tool, { cwd: big.cwd, onProgress: (progress) => steps.push(progress.step), collectGarbage: () => steps.push('collect') });
    // Once while writing (COLLECT_EVERY bytes of files), once between writing and checking.
    expect(steps.slice(steps.indexOf('check-zip'))).toEqual(['check-zip', 'collect']);
    expect(steps.filter((step) => step === 'collect')).toHaveLength(2);

    const small = setup();
    const none: string[] = [];
    await packFolder(small.tool, { cwd: small.cwd, collectGarbage: () => none.push('collect') });
    expect(none).toEqual([]);
  });

  it('in a dry run, selects and checks the files only', async () => {
    const { tool, cwd } = setup();
    const steps: PackProgress[] = [];
    await packFolder(tool, { cwd, dryRun: true, onProgress: (progress) => steps.push(progress) });
    expect(steps).toEqual([{ step: 'select' }, { step: 'check-files', files: 4 }]);
  });

  it('checks the files first only past a limit: 200 files go straight to the zip', async () => {
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 196; i++) files[`js/chunk-${i}.js`] = `export default ${i};\n`;
    const { tool, cwd } = setup(files);
    const steps: string[] = [];
    const result = await packFolder(tool, { cwd, onProgress: (progress) => steps.push(progress.step) });
    expect(result).toMatchObject({ ok: true, written: true, stage: 'zip', files: 200 });
    expect(steps).not.toContain('check-files');
  });
});

describe('packFolder: the unpacked limit, 50,000,000 bytes', () => {
  /** The clean tool plus a sparse file that brings the total to `total` bytes. */
  function toolOfSize(total: number) {
    const { tool, cwd } = setup();
    const rest = Object.values(goodFiles()).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    const big = path.join(tool, 'img', 'blank.png');
    mkdirSync(path.dirname(big));
    writeFileSync(big, '');
    truncateSync(big, total - rest);
    return { tool, cwd };
  }

  it('one byte over: refused on the files, before compressing, and no zip size is given', async () => {
    const { tool, cwd } = toolOfSize(50_000_001);
    for (const dryRun of [false, true]) {
      const steps: string[] = [];
      const result = await packFolder(tool, { cwd, dryRun, onProgress: (progress) => steps.push(progress.step) });
      expect(result).toMatchObject({ ok: false, written: false, stage: 'files', unpackedSize: 50_000_001 });
      expect(ruleIds(result)).toEqual(['unpacked-size']);
      expect('zipSize' in result).toBe(false);
      expect(steps).toEqual(['select', 'check-files']);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('exactly at the limit: packed, and measured in a dry run', async () => {
    const { tool, cwd } = toolOfSize(50_000_000);
    const steps: string[] = [];
    const result = await packFolder(tool, { cwd, onProgress: (progress) => steps.push(progress.step) });
    expect(result).toMatchObject({ ok: true, written: true, stage: 'zip', unpackedSize: 50_000_000 });
    expect(steps).not.toContain('check-files');
    const dry = await packFolder(tool, { cwd: tempDir(), dryRun: true });
    expect(dry).toMatchObject({ ok: true, stage: 'files', zipSize: result.zipSize });
  });
});

describe('packFolder: the dry run’s result', () => {
  it('lists each file with its size, in zip order, and applies the rule settings given', async () => {
    const { tool, cwd } = setup(goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }));
    const result = await packFolder(tool, { cwd, dryRun: true });
    expect(ruleIds(result)).toEqual(['manifest-description']);
    expect(result.included).toEqual(
      ['app.js', 'index.html', 'manifest.json', 'styles.css'].map((name) => ({ path: name, size: statSync(path.join(tool, name)).size })),
    );
    const quiet = await packFolder(tool, { cwd, dryRun: true, rules: { 'manifest-description': 'off' } });
    expect(quiet.report.problems).toEqual([]);
    const scoped = await packFolder(tool, { cwd, dryRun: true, overrides: [{ files: ['manifest.json'], rules: { 'manifest-description': 'off' } }] });
    expect(scoped.report.problems).toEqual([]);
  });
});

describe('packFolder: refusals', () => {
  it('refuses an invalid timestamp', async () => {
    const { tool, cwd } = setup();
    await expect(packFolder(tool, { cwd, timestamp: new Date(Number.NaN) })).rejects.toMatchObject({
      name: 'UsageError',
      message: 'the timestamp for the entries is not a valid date.',
    });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('says what is wrong with a path that is not a tool folder', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'bundle.zip'), 'PK');
    writeFileSync(path.join(cwd, 'My Bundle.ZIP'), 'PK');
    writeFileSync(path.join(cwd, 'notes.txt'), 'x');
    const refusal = (folder: string) => packFolder(folder, { cwd }).then(() => expect.unreachable(), (error: Error) => error);
    expect(await refusal('nowhere')).toMatchObject({ name: 'UsageError', message: 'nowhere does not exist. Give the path of a tool folder.' });
    expect(await refusal('bundle.zip')).toMatchObject({
      name: 'UsageError',
      message: 'bundle.zip is a file; pack takes a tool folder. To check a zip, run: pipeline-tool validate bundle.zip',
    });
    expect((await refusal('My Bundle.ZIP')).message).toBe("My Bundle.ZIP is a file; pack takes a tool folder. To check a zip, run: pipeline-tool validate 'My Bundle.ZIP'");
    expect(await refusal('notes.txt')).toMatchObject({ name: 'UsageError', message: 'notes.txt is not a folder. Give the path of a tool folder.' });
    expect(await refusal('notes.txt/inner')).toMatchObject({ name: 'UsageError', message: expect.stringMatching(/^cannot read notes\.txt\/inner: ENOTDIR: /) });
  });

  it('refuses an existing file before compressing anything', async () => {
    const { tool, cwd } = setup();
    writeFileSync(path.join(cwd, GOOD_ZIP_NAME), 'OLD');
    const steps: string[] = [];
    await expect(packFolder(tool, { cwd, onProgress: (progress) => steps.push(progress.step) })).rejects.toBeInstanceOf(DestinationExistsError);
    expect(steps).toEqual(['select']);
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('does not replace a file that appears at the destination while it packs, unless forced', async () => {
    const { tool, cwd } = setup();
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    const appear = (progress: PackProgress) => {
      if (progress.step === 'check-zip') writeFileSync(zip, 'ARRIVED');
    };
    await expect(packFolder(tool, { cwd, onProgress: appear })).rejects.toMatchObject({
      name: 'UsageError',
      message: `${zip} already exists; use --force to replace it.`,
    });
    expect(readFileSync(zip, 'utf8')).toBe('ARRIVED');
    expect(tempFilesIn(cwd)).toEqual([]);
    rmSync(zip);
    const forced = await packFolder(tool, { cwd, force: true, onProgress: appear });
    expect(forced.written).toBe(true);
    expect(readFileSync(zip).subarray(0, 2).toString()).toBe('PK');
  });
});

describe('packFolder: aborting', () => {
  it('removes the temporary file the moment it is aborted, and stops compressing', async () => {
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 30; i++) files[`js/chunk-${i}.js`] = `let v${i} = ${i};\n`.repeat(5_000);
    const { tool, cwd } = setup(files);
    const controller = new AbortController();
    let atAbort: string[] | undefined;
    let lastDone = 0;
    const packing = packFolder(tool, {
      cwd,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.step !== 'compress') return;
        lastDone = progress.done;
        if (progress.done === 3) {
          expect(tempFilesIn(cwd)).toHaveLength(1);
          controller.abort();
          atAbort = tempFilesIn(cwd);
        }
      },
    });
    await expect(packing).rejects.toMatchObject({ name: 'AbortError' });
    expect(atAbort).toEqual([]);
    expect(lastDone).toBe(3);
  });

  it('a dry run aborted while the files are checked stops measuring the zip, and writes nothing', async () => {
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 30; i++) files[`js/chunk-${i}.js`] = `let v${i} = ${i};\n`.repeat(5_000);
    const { tool, cwd } = setup(files);
    const controller = new AbortController();
    const packing = packFolder(tool, { cwd, dryRun: true, signal: controller.signal, onProgress: (progress) => progress.step === 'check-files' && controller.abort() });
    await expect(packing).rejects.toMatchObject({ name: 'AbortError' });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a dry run measures the zip while it checks the files: the size is the written zip’s', async () => {
    const { tool, cwd } = setup({ ...goodFiles(), 'img/noise.png': noise(20_000), 'js/a.js': 'a += 1;\n'.repeat(3_000) });
    const dry = await packFolder(tool, { cwd, dryRun: true });
    const written = await packFolder(tool, { cwd });
    expect(dry.zipSize).toBe(written.zipSize);
    expect(dry.zipSize).toBe(statSync(written.outputPath).size);
  });
});

describe.skipIf(process.platform !== 'linux')('packFolder: file handles', () => {
  it('closes every file it opens, whether it writes the zip or not', async () => {
    const { tool, cwd } = setup({ ...goodFiles(), '.pipelineignore': 'drafts/\n' });
    await packFolder(tool, { cwd: tempDir() });
    const before = openFileCount();
    await packFolder(tool, { cwd });
    await packFolder(tool, { cwd, dryRun: true });
    await packFolder(tool, { cwd: tempDir(), rules: {}, timestamp: new Date(Date.UTC(2024, 0, 1)) });
    expect(openFileCount()).toBe(before);
  });
});
