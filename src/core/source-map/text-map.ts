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
 * For a script a compiler wrote with a source map back to the author's text: each place is traced
 * through the map as validate traces a built file's findings (source-placer.ts), to the piece of
 * source the generated code came from. A compiler maps the start of each piece it writes, not
 * every character; when the generated text from that start up to the place is the author's, word
 * for word (a key inside a Vue handler's object, say), the place moves on as far into the source.
 */
export function mappedPlaces(script: string, map: ConstructorParameters<typeof TraceMap>[0], source: string): PlaceInText {
  const trace = new TraceMap(map);
  const lines = linesOf(script);
  const sourceLines = linesOf(source);
  return (line, column) => {
    const text = lines(line - 1);
    if (text === undefined) return undefined;
    const offset = utf16Offset(text, column);
    const segment = traceSegment(trace, line - 1, offset);
    if (!segment || segment.length < 4) return undefined;
    const [start, , sourceLine, sourceColumn] = segment as [number, number, number, number];
    const written = text.slice(start, offset);
    const same = sourceLines(sourceLine)?.startsWith(written, sourceColumn) === true;
    return { line: sourceLine + 1, column: same ? sourceColumn + written.length : sourceColumn };
  };
}

function linesOf(text: string): (index: number) => string | undefined {
  const starts = lineStartsOf(text);
  return (index) => lineOf(text, starts, index);
}
