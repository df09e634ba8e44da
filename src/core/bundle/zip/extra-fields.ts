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

export type UnicodePath = { name: string; crcMatches: boolean } | undefined;

/**
 * The name an Info-ZIP Unicode Path field (0x7075) gives the entry. Readers that support it use
 * it instead of the header's name when its checksum matches the header's raw name bytes; the
 * specification says a field whose checksum does not match is stale and must be ignored, which
 * older readers do not all do. Versions other than 1 are ignored by everyone.
 */
export function unicodePath(block: ExtraBlock, rawName: Buffer): UnicodePath {
  const field = findField(block, UNICODE_PATH_ID);
  if (!field || field.data.length < 5 || field.data[0] !== 1) return undefined;
  const crcMatches = field.data.readUInt32LE(1) === crc32(rawName);
  return { name: new TextDecoder('utf-8').decode(field.data.subarray(5)), crcMatches };
}
