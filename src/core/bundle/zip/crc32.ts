import zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, initial?: number) => number;

let table: Uint32Array | undefined;

/** Table-driven CRC-32 (IEEE), for Node versions whose zlib has no crc32 (before 20.15). */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as unknown as { crc32?: Crc32 }).crc32;

/** CRC-32 as zip uses it; `initial` continues a running checksum across chunks. */
export const crc32: Crc32 = native ? (data, initial = 0) => native(data, initial) >>> 0 : crc32Portable;
