import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import { MAX_UNPACKED_BYTES } from '../../src/core/rules/unpacked-size.js';
import { validateBundle } from '../../src/core/validate.js';
import { writeBytes } from '../helpers/bundles.js';
import { ruleCases } from './rule-cases.js';
import { shapes } from './zip-corpus.js';

/** Entry names in order, and a SHA-256 of the bytes of each file, as one reader sees an archive. */
interface Listing {
  names: string[];
  files: Record<string, string>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Reads every entry with yauzl; undefined when yauzl refuses the archive or any entry in it. */
function readWithYauzl(file: string): Promise<Listing | undefined> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve(undefined);
      const listing: Listing = { names: [], files: {} };
      const fail = () => {
        zip.close();
        resolve(undefined);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(listing));
      zip.on('entry', (entry: yauzl.Entry) => {
        listing.names.push(entry.fileName);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail();
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', fail);
          stream.on('end', () => {
            listing.files[entry.fileName] = sha256(Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

// Names without the UTF-8 flag are decoded as code page 437 by zipfile and as UTF-8 by validate
// (which warns); read back as UTF-8, the two name the same file.
const PYTHON_READER = `
import hashlib, json, sys, zipfile
out = {}
for path in sys.argv[1:]:
    try:
        with zipfile.ZipFile(path) as z:
            listing = {'names': [], 'files': {}}
            for info in z.infolist():
                name = info.filename
                if not info.flag_bits & 0x800:
                    try: name = name.encode('cp437').decode('utf-8')
                    except UnicodeError: pass
                listing['names'].append(name)
                if not info.is_dir():
                    listing['files'][name] = hashlib.sha256(z.read(info)).hexdigest()
            out[path] = listing
    except Exception as error:
        out[path] = None
print(json.dumps(out))
`;

/** Reads every archive with Python's zipfile in one process; a missing listing is a refusal. */
async function readWithPython(files: string[]): Promise<Map<string, Listing | undefined>> {
  const { stdout } = await promisify(execFile)('python3', ['-c', PYTHON_READER, ...files], { maxBuffer: 64 * 1024 * 1024 });
  const read = JSON.parse(stdout) as Record<string, Listing | null>;
  return new Map(files.map((file) => [file, read[file] ?? undefined]));
}

async function readWithOurs(file: string): Promise<Listing> {
  const source = await openZipSource(file);
  try {
    const listing: Listing = { names: source.entries.map((e) => e.path), files: {} };
    for (const entry of source.entries) {
      if (entry.kind !== 'file' || !entry.readable) continue;
      const chunks: Buffer[] = [];
      await source.read(entry, MAX_UNPACKED_BYTES, (chunk) => chunks.push(chunk));
      listing.files[entry.path] = sha256(Buffer.concat(chunks));
    }
    return listing;
  } finally {
    await source.close();
  }
}

const same = (a: Listing, b: Listing) =>
  JSON.stringify(a.names) === JSON.stringify(b.names) && JSON.stringify(Object.entries(a.files).sort()) === JSON.stringify(Object.entries(b.files).sort());

interface Case {
  name: string;
  file: string;
  /** False when yauzl cannot be asked (it throws outside its callbacks on this shape). */
  yauzl: boolean;
  peers?: { yauzl?: string; python?: string };
  clean: boolean;
}

/** Every archive the tests build: the peer suites' shapes and the rule cases' zips. */
function corpus(): Case[] {
  const fromShapes = shapes.map((shape) => ({
    name: shape.name,
    file: writeBytes(shape.bytes()),
    yauzl: shape.oracle !== false,
    clean: shape.clean === true,
    ...(shape.peers ? { peers: shape.peers } : {}),
  }));
  const fromRules = Object.entries(ruleCases).flatMap(([id, c]) => [
    { name: `${id} (bad)`, file: c.bad(), yauzl: true, clean: false },
    { name: `${id} (good)`, file: c.good(), yauzl: true, clean: true },
  ]);
  return [...fromShapes, ...fromRules].filter((c) => c.file.endsWith('.zip'));
}

const cases = corpus();
let python = new Map<string, Listing | undefined>();
beforeAll(async () => {
  python = await readWithPython(cases.map((c) => c.file));
}, 120_000);

/**
 * yauzl, the zip reader the design started from, and Python's zipfile, as second opinions:
 * whenever one reads an archive without error, our reader lists the same entries with the same
 * bytes, or validate reports an archive or path finding that explains why they differ (a Unicode
 * Path field yauzl follows, a name it decodes as code page 437, bytes it reads from another place).
 */
describe('other readers (yauzl, Python) agree, or a finding explains why not', () => {
  it.each(cases.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const theirs = [...(c.yauzl ? [await readWithYauzl(c.file)] : []), python.get(c.file)].filter((listing) => listing !== undefined);
    if (theirs.length === 0) return;
    const ours = await readWithOurs(c.file);
    const differing = theirs.filter((listing) => !same(ours, listing));
    if (differing.length === 0) return;
    // Besides archive and path findings: we do not read a link's target as a file, nor more than
    // the budget of a bomb, where the others read both.
    const report = await validateBundle(c.file);
    const explained = report.problems.filter((p) => /^(archive|path)-|^entry-not-regular$|^unpacked-size$/.test(p.ruleId));
    expect(explained, `they list ${JSON.stringify(differing[0]!.names)}, we list ${JSON.stringify(ours.names)}`).not.toEqual([]);
  });

  it('agree on the clean and the Zip64 archives, so the comparison is not vacuous', async () => {
    let compared = 0;
    for (const c of cases.filter((c) => c.clean)) {
      const ours = await readWithOurs(c.file);
      const theirs = await readWithYauzl(c.file);
      expect(theirs, `yauzl reads ${c.name}`).toBeDefined();
      expect(same(ours, theirs!), `yauzl, ${c.name}`).toBe(true);
      expect(python.get(c.file), `Python reads ${c.name}`).toBeDefined();
      expect(same(ours, python.get(c.file)!), `Python, ${c.name}`).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });
});

/**
 * For the shapes that say how yauzl and Python read them, each note still holds: a reader without
 * a note lists the entries and bytes validate reads, and one with a note does not (it refuses the
 * archive, or reads another). The notes are where the reason for each disagreement is written.
 */
describe('how yauzl and Python read each shape, as the corpus says', () => {
  it.each(cases.filter((c) => c.peers).map((c) => [c.name, c]))('%s', async (_name, c) => {
    const ours = await readWithOurs(c.file);
    const readers = { yauzl: c.yauzl ? await readWithYauzl(c.file) : undefined, python: python.get(c.file) };
    for (const [reader, listing] of Object.entries(readers) as [keyof typeof readers, Listing | undefined][]) {
      const agrees = listing !== undefined && same(ours, listing);
      const note = c.peers![reader];
      expect(agrees, note ? `${reader} was noted to differ: ${note}` : `${reader} differs, and no note says why`).toBe(note === undefined);
    }
  });
});
