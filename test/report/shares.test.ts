import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesBySource, type SourcePart } from '../../src/core/source-map/source-bytes.js';
import { COMPRESSION_LEVEL } from '../../src/core/shipment/shipment.js';
import { compressContent, storedSizeOf } from '../../src/core/shipment/zip-size.js';
import { vlq } from '../helpers/vlq.js';

/*
 * How a built file is shared out among its sources, against a reference that decides the owner of
 * each character on its own (as source-map-explorer describes it): on a line, a character belongs
 * to the last mapping at or before its column; the line's break, and whatever lies past the last
 * mapping, to the line's last mapping; a line without mappings, to no source. A source's part is
 * its characters in order. bytesBySource shares a file out while the mappings are read, which
 * this checks character by character, for plain maps (read in place) and index maps (decoded by
 * trace-mapping) alike.
 */

const SOURCES = ['src/a.ts', 'src/b.ts', 'node_modules/c/index.js'];
const URL = 'file:///project/dist/app.js.map';
const resolved = (index: number) => new globalThis.URL(SOURCES[index]!, URL).href;

/** A segment as absolute figures: its column, and the source it names (-1: a segment of one number). */
interface Segment {
  column: number;
  source: number;
}

/** The segments, line by line, as `mappings` (deltas, sources kept in range). */
function encode(lines: readonly (readonly Segment[])[]): string {
  let source = 0;
  return lines
    .map((segments) => {
      let column = 0;
      return segments
        .map((segment) => {
          const fields = [vlq(segment.column - column)];
          column = segment.column;
          if (segment.source >= 0) {
            fields.push(vlq(segment.source - source), 'A', 'A');
            source = segment.source;
          }
          return fields.join('');
        })
        .join(',');
    })
    .join(';');
}

/** The reference: each character's owner, then each owner's characters in order. */
function reference(text: string, lines: readonly (readonly Segment[])[]): SourcePart[] {
  const owners = new Map<string | null, string[]>();
  const own = (owner: string | null, char: string) => {
    let chars = owners.get(owner);
    if (!chars) owners.set(owner, (chars = []));
    chars.push(char);
  };
  const lineTexts = text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
  lineTexts.forEach((lineText, index) => {
    const body = lineText.replace(/(?:\r\n|\r|\n)$/, '');
    const segments = lines[index] ?? [];
    const ownerAt = (column: number): string | null => {
      let owner: string | null = null;
      for (const segment of segments) if (Math.min(segment.column, body.length) <= column) owner = segment.source >= 0 ? resolved(segment.source) : null;
      return owner;
    };
    for (let column = 0; column < lineText.length; column++) own(ownerAt(Math.min(column, body.length)), lineText[column]!);
  });
  return [...owners].map(([source, chars]) => ({ source, bytes: Buffer.byteLength(chars.join(''), 'utf8'), text: chars.join('') }));
}

const lineText = fc.array(fc.constantFrom('a', 'b', ' ', 'é', '😀', ';'), { maxLength: 30 }).map((chars) => chars.join(''));
const builtText = fc.tuple(fc.array(lineText, { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 6, maxLength: 6 }), fc.boolean()).map(([lines, breaks, endsWithBreak]) =>
  lines.map((line, i) => line + (i < lines.length - 1 || endsWithBreak ? breaks[i] : '')).join(''),
);
/** Lines of segments in column order (equal columns too), some past the line's end, some naming no source. */
const segmentLines = fc.array(
  fc.array(fc.record({ column: fc.nat({ max: 40 }), source: fc.integer({ min: -1, max: SOURCES.length - 1 }) }), { maxLength: 6 }).map((segments) => [...segments].sort((a, b) => a.column - b.column)),
  { maxLength: 8 },
);

describe('bytesBySource', () => {
  it('gives every character to the source the reference gives it, for plain and index maps', async () => {
    await fc.assert(
      fc.asyncProperty(builtText, segmentLines, async (text, lines) => {
        const map = { version: 3, sources: SOURCES, names: [], mappings: encode(lines) };
        const expected = reference(text, lines);
        expect(await bytesBySource(text, { map, url: URL })).toEqual(expected);
        expect(await bytesBySource(text, { map: { version: 3, sections: [{ offset: { line: 0, column: 0 }, map }] }, url: URL })).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('sorts a line whose mappings are out of column order, as trace-mapping does', async () => {
    const text = 'aaaabbbb\ncccc';
    const map = { version: 3, sources: SOURCES, names: [], mappings: `${vlq(8)}${vlq(1)}AA,${vlq(-8)}${vlq(-1)}AA;AAAA` };
    expect(await bytesBySource(text, { map, url: URL })).toEqual(
      reference(text, [
        [
          { column: 0, source: 0 },
          { column: 8, source: 1 },
        ],
        [{ column: 0, source: 0 }],
      ]),
    );
  });
});

describe('storedSizeOf', () => {
  it('is the length of what compressContent stores: deflated, or the bytes as they are', async () => {
    const samples = [Buffer.alloc(0), Buffer.from('a'), Buffer.from('hello '.repeat(5000)), randomBytes(3000), Buffer.from(JSON.stringify({ x: 'é😀'.repeat(700) }))];
    for (const sample of samples) expect(storedSizeOf(sample, COMPRESSION_LEVEL)).toBe((await compressContent(sample, COMPRESSION_LEVEL)).data.length);
    // Incompressible bytes are stored: their own length.
    expect(storedSizeOf(samples[3]!, COMPRESSION_LEVEL)).toBe(3000);
  });
});
