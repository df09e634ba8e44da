import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import { MAX_UNPACKED_BYTES } from '../../src/core/rules/unpacked-size.js';
import { validateBundle } from '../../src/core/validate.js';
import { writeBytes } from '../helpers/bundles.js';
import { ruleCases } from './rule-cases.js';
import { shapes } from './zip-corpus.js';

/** Entry names in order, and the bytes of each file, as one reader sees an archive. */
interface Listing {
  names: string[];
  files: Map<string, Buffer>;
}

/** Reads every entry with yauzl; undefined when yauzl refuses the archive or any entry in it. */
function readWithYauzl(file: string): Promise<Listing | undefined> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve(undefined);
      const listing: Listing = { names: [], files: new Map() };
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
            listing.files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

async function readWithOurs(file: string): Promise<Listing> {
  const source = await openZipSource(file);
  try {
    const listing: Listing = { names: source.entries.map((e) => e.path), files: new Map() };
    for (const entry of source.entries) {
      if (entry.kind !== 'file' || !entry.readable) continue;
      const chunks: Buffer[] = [];
      await source.read(entry, MAX_UNPACKED_BYTES, (chunk) => chunks.push(chunk));
      listing.files.set(entry.path, Buffer.concat(chunks));
    }
    return listing;
  } finally {
    await source.close();
  }
}

const same = (a: Listing, b: Listing) =>
  JSON.stringify(a.names) === JSON.stringify(b.names) && [...a.files].every(([name, bytes]) => b.files.get(name)?.equals(bytes));

/** Every archive the tests build: the rule cases' zips and the peer suites' shapes. */
function corpus(): [string, () => string][] {
  const fromShapes = shapes
    .filter((shape) => shape.oracle !== false)
    .map((shape): [string, () => string] => [
    shape.name,
    () => writeBytes(shape.bytes()),
  ]);
  const fromRules = Object.entries(ruleCases).flatMap(([id, c]): [string, () => string][] => [
    [`${id} (bad)`, c.bad],
    [`${id} (good)`, c.good],
  ]);
  return [...fromShapes, ...fromRules];
}

/**
 * yauzl, the zip reader the design started from, as a second opinion: whenever it reads an
 * archive without error, our reader lists the same entries with the same bytes, or validate
 * reports an archive or path finding that explains why they differ (a Unicode Path field yauzl
 * follows, a name it decodes as code page 437, bytes it reads from another place).
 */
describe('a second reader (yauzl) agrees, or a finding explains why not', () => {
  it.each(corpus())('%s', async (_name, make) => {
    const file = make();
    if (!file.endsWith('.zip')) return;
    const theirs = await readWithYauzl(file);
    if (!theirs) return;
    const ours = await readWithOurs(file);
    if (same(ours, theirs) && same(theirs, ours)) return;
    // Besides archive and path findings: we do not read a link's target as a file, nor more than
    // the budget of a bomb, where yauzl reads both.
    const report = await validateBundle(file);
    const explained = report.problems.filter((p) => /^(archive|path)-|^entry-not-regular$|^unpacked-size$/.test(p.ruleId));
    expect(explained, `yauzl lists ${JSON.stringify(theirs.names)}, we list ${JSON.stringify(ours.names)}`).not.toEqual([]);
  });

  it('agrees on the clean and the Zip64 archives, so the comparison is not vacuous', async () => {
    let compared = 0;
    const clean = new Set(shapes.filter((shape) => shape.clean).map((shape) => shape.name));
    for (const [name, make] of corpus().filter(([name]) => clean.has(name) || name.endsWith('(good)'))) {
      const file = make();
      if (!file.endsWith('.zip')) continue;
      const theirs = await readWithYauzl(file);
      expect(theirs, `yauzl reads ${name}`).toBeDefined();
      expect(same(await readWithOurs(file), theirs!), name).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });
});
