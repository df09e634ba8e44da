import { TraceMap, traceSegment } from '@jridgewell/trace-mapping';
import { lineOf, lineStartsOf, utf16Offset } from './source-placer.js';

/** A place in a text as editors count it: line 1-based, column 0-based in UTF-16 code units. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Turns the positions the code rules give in a generated script (1-based, columns in characters)
 * into positions in the text the author wrote. Undefined for a place the author did not write
 * (code a compiler added).
 */
export type PlaceInText = (line: number, column: number) => TextPosition | undefined;

/** For a script whose characters stand where the author wrote them (type-stripped with blanks, or a block of a larger file starting at `origin`). */
export function samePlaces(script: string): PlaceInText {
  const lines = linesOf(script);
  return (line, column) => {
    const text = lines(line - 1);
    return text === undefined ? undefined : { line, column: utf16Offset(text, column) };
  };
}

/**
 * For a script a compiler wrote with a source map back to the author's file: each place is traced
 * through the map as validate traces a built file's findings (source-placer.ts), to the start of the
 * piece of source the generated code came from.
 */
export function mappedPlaces(script: string, map: ConstructorParameters<typeof TraceMap>[0]): PlaceInText {
  const trace = new TraceMap(map);
  const lines = linesOf(script);
  return (line, column) => {
    const text = lines(line - 1);
    if (text === undefined) return undefined;
    const segment = traceSegment(trace, line - 1, utf16Offset(text, column));
    if (!segment || segment.length < 4) return undefined;
    return { line: segment[2]! + 1, column: segment[3]! };
  };
}

function linesOf(text: string): (index: number) => string | undefined {
  const starts = lineStartsOf(text);
  return (index) => lineOf(text, starts, index);
}
