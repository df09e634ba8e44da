// Byte classes shared by the scanners. Every character that matters to JavaScript, HTML, CSS and
// JSON syntax is ASCII, so the scanners read UTF-8 bytes directly and never decode: a byte of 0x80
// or above can only be part of a name, a string, a comment or text. Continuation bytes (10xxxxxx)
// are counted separately so that columns come out in characters, not bytes.

export const LF = 0x0a;
export const CR = 0x0d;

/** True for the second, third or fourth byte of a UTF-8 sequence. */
export function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Letters, digits, `_`, `$` and every non-ASCII byte: what JavaScript names are made of. */
export const JS_NAME_PART = new Uint8Array(256);
/** Like JS_NAME_PART without the digits. */
export const JS_NAME_START = new Uint8Array(256);

for (let c = 0; c < 256; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24 || c >= 0x80;
  const digit = c >= 0x30 && c <= 0x39;
  JS_NAME_START[c] = letter ? 1 : 0;
  JS_NAME_PART[c] = letter || digit ? 1 : 0;
}

export function isAsciiDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

export function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === LF || byte === CR || byte === 0x0c;
}

/** Lower-cases an ASCII letter byte; other bytes pass unchanged. */
export function lowerByte(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/** A table with 1 at each of the given bytes and at every byte of 0x80 or above. */
export function stopTable(...bytes: number[]): Uint8Array {
  const table = new Uint8Array(256);
  for (const b of bytes) table[b] = 1;
  for (let c = 0x80; c < 256; c++) table[c] = 1;
  return table;
}

const utf8 = new TextDecoder('utf-8');

/** Decodes a short byte range (names, URLs, short strings) for use in findings. */
export function decodeRange(bytes: Uint8Array, start: number, end: number): string {
  return utf8.decode(bytes.subarray(start, end));
}
