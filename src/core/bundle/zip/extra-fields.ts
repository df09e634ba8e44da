import type { Finding } from '../../problem.js';
import { crc32 } from './crc32.js';
import { readUInt64 } from './zip-format.js';

/** One sub-field of an extra-field block. */
export interface ExtraField {
  id: number;
  data: Buffer;
}

export interface ExtraBlock {
  fields: ExtraField[];
  /** A sub-field whose declared length runs past the end of the block. */
  overrun?: { id: number; declared: number; available: number };
}

export const ZIP64_EXTRA_ID = 0x0001;
export const UNICODE_PATH_ID = 0x7075;

/**
 * Splits an extra-field block into its sub-fields. A tail shorter than a sub-field header (1 to 3
 * bytes, as alignment tools leave) is ignored, as every common reader does; a sub-field that
 * claims more bytes than remain is reported, because readers then stop at different places
 * (Python's zipfile refuses the entry, Go's archive/zip ignores the rest).
 */
export function parseExtra(block: Buffer): ExtraBlock {
  const fields: ExtraField[] = [];
  let at = 0;
  while (at + 4 <= block.length) {
    const id = block.readUInt16LE(at);
    const declared = block.readUInt16LE(at + 2);
    const available = block.length - at - 4;
    if (declared > available) return { fields, overrun: { id, declared, available } };
    fields.push({ id, data: block.subarray(at + 4, at + 4 + declared) });
    at += 4 + declared;
  }
  return { fields };
}

export function findField(block: ExtraBlock, id: number): ExtraField | undefined {
  return block.fields.find((field) => field.id === id);
}

/**
 * Reads the 64-bit values a Zip64 field holds, in the order the specification fixes: one per
 * header field that is set to the marker, and only those. Undefined when the field is too short
 * for them (a malformed Zip64 entry).
 */
export function zip64Values(field: ExtraField, wanted: readonly boolean[]): (number | undefined)[] | undefined {
  const values: (number | undefined)[] = [];
  let at = 0;
  for (const want of wanted) {
    if (!want) {
      values.push(undefined);
      continue;
    }
    if (at + 8 > field.data.length) return undefined;
    values.push(readUInt64(field.data, at));
    at += 8;
  }
  return values;
}

/** What each 8-byte slot of a Zip64 field stands for, in the order the specification fixes. */
export const ZIP64_SLOTS = ['uncompressed size', 'compressed size', 'local header offset'] as const;

/**
 * Why a Zip64 field that holds more values than the header's fields set to 0xFFFFFFFF call for
 * contradicts its header, or undefined when it does not. A reader that follows the specification
 * reads only the values those fields defer (APPNOTE 4.5.3); one that reads the field slot by slot,
 * whatever the header says, reads them all. Both read one entry only when every value in the field
 * equals the header's own, as it does from writers that fill every slot (Node's archiver writes
 * the local header offset too).
 */
export function zip64Contradiction(field: ExtraField, wanted: readonly boolean[], real: readonly number[], where: string): string | undefined {
  if (field.data.length <= 8 * wanted.filter(Boolean).length) return undefined;
  for (let slot = 0; slot < real.length && 8 * slot + 8 <= field.data.length; slot++) {
    const value = readUInt64(field.data, 8 * slot);
    if (value === real[slot]) continue;
    return `the ${where}'s Zip64 field holds ${value} in the place of the ${ZIP64_SLOTS[slot]}, which the header gives as ${real[slot]} itself; a Zip64 value counts only for a header field set to 0xFFFFFFFF (APPNOTE 4.5.3), so readers that follow the specification take ${real[slot]} and readers that read the field in order take ${value}`;
  }
  return undefined;
}

type UnicodePath = { name: string; crcMatches: boolean } | undefined;

/**
 * The name an Info-ZIP Unicode Path field (0x7075) gives the entry. Readers that support it use
 * it instead of the header's name when its checksum matches the header's raw name bytes; the
 * specification says a field whose checksum does not match is stale and must be ignored, which
 * older readers do not all do. Versions other than 1 are ignored by everyone.
 */
function unicodePath(block: ExtraBlock, rawName: Buffer): UnicodePath {
  const field = findField(block, UNICODE_PATH_ID);
  if (!field || field.data.length < 5 || field.data[0] !== 1) return undefined;
  const crcMatches = field.data.readUInt32LE(1) === crc32(rawName);
  return { name: new TextDecoder('utf-8').decode(field.data.subarray(5)), crcMatches };
}

/**
 * The finding for a Unicode Path field, in the central record or in the local header, that names
 * the entry otherwise than the central directory does. Extractors that read local headers
 * (bsdtar, streaming readers) take the local field's name, even a stale one, and write that file.
 * The Info-ZIP Unicode Comment field (0x6375) is not compared: readers take only a comment from it.
 */
export function unicodePathMismatch(block: ExtraBlock, rawName: Buffer, name: string, where: 'central' | 'local'): Finding | undefined {
  const unicode = unicodePath(block, rawName);
  if (!unicode || unicode.name === name) return undefined;
  return { ruleId: 'path-unicode-mismatch', file: name, data: { other: unicode.name, crcMatches: unicode.crcMatches, where } };
}
