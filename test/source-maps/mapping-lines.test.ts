import { encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { TraceMap, traceSegment } from '@jridgewell/trace-mapping';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexMappings, segmentAt } from '../../src/core/source-map/mapping-lines.js';

/*
 * A map's mappings looked up a line at a time, without decoding them all: the lookup gives what
 * trace-mapping (the decoder Vite, Rollup and Babel use) gives for every position. In-process and
 * without a build, so that `npm run mutate` can run it against each mutant of mapping-lines.ts.
 */

describe('mappings decoded a line at a time', () => {
  it('decodes nothing whole for a line in column order, and only the line asked about otherwise', () => {
    // Three lines of two segments, at columns 0 and 1, from columns 0 and 1 of lines 0, 1, 2 of
    // the one source (D is -1: a source column is counted from the last one, across lines).
    const lines = indexMappings('AAAA,CAAC;AACD,CAAC;AACD,CAAC');
    expect(segmentAt(lines, 1, 1)).toEqual({ source: 0, line: 1, column: 1 });
    expect(segmentAt(lines, 2, 0)).toEqual({ source: 0, line: 2, column: 0 });
    expect(segmentAt(lines, 3, 0)).toBeNull();
    expect(lines.decoded.size).toBe(0);
    // The second line's segments out of order (column 1, then 0): that line alone is decoded, and sorted.
    const unsorted = indexMappings('AAAA,CAAC;CACD,DAAC;AACD,CAAC');
    expect(segmentAt(unsorted, 1, 0)).toEqual({ source: 0, line: 1, column: 1 });
    expect(segmentAt(unsorted, 0, 1)).toEqual({ source: 0, line: 0, column: 1 });
    expect([...unsorted.decoded.keys()]).toEqual([1]);
  });

  it('reads a one-number segment at the very end of the mappings as naming no source, in a sorted line and in one decoded whole', () => {
    const sorted = indexMappings('AAAA,C');
    expect(segmentAt(sorted, 0, 0)).toEqual({ source: 0, line: 0, column: 0 });
    expect(segmentAt(sorted, 0, 1)).toBeNull();
    expect(segmentAt(sorted, 0, 9)).toBeNull();
    // Column 2 (a source), then column 0 with only a column: out of order, so decoded whole.
    const unsorted = indexMappings('EAAA,F');
    expect(segmentAt(unsorted, 0, 0)).toBeNull();
    expect(segmentAt(unsorted, 0, 1)).toBeNull();
    expect(segmentAt(unsorted, 0, 2)).toEqual({ source: 0, line: 0, column: 0 });
  });

  /** A segment: its column, and (unless it has only that) source, line, column and maybe a name. */
  const segment = fc.oneof(
    fc.tuple(fc.nat(400)),
    fc.tuple(fc.nat(400), fc.nat(5), fc.nat(3000), fc.nat(200)),
    fc.tuple(fc.nat(400), fc.nat(5), fc.nat(3000), fc.nat(200), fc.nat(9)),
  );

  it('finds the segment trace-mapping finds, at every position, sorted lines or not', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(segment, { maxLength: 300, size: 'max' }), fc.boolean()), { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(7), fc.nat(420)), { minLength: 1, maxLength: 40 }), (written, asked) => {
        // Lines long enough to be read from checkpoints, in column order as bundlers write them, or
        // not (encode keeps the order it is given).
        const decoded = written.map(([line, inOrder]) => (inOrder ? [...line].sort((a, b) => a[0] - b[0]) : line));
        const mappings = encode(decoded as SourceMapMappings);
        const trace = new TraceMap({ version: 3, sources: ['a', 'b', 'c', 'd', 'e', 'f'], names: [], mappings });
        const lines = indexMappings(mappings);
        for (const [line, column] of asked) {
          const expected = traceSegment(trace, line, column);
          const found = expected && expected.length >= 4 ? { source: expected[1], line: expected[2], column: expected[3] } : null;
          expect(segmentAt(lines, line, column)).toEqual(found);
        }
      }),
      { numRuns: 300 },
    );
  });
});
