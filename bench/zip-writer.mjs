// Just enough of the zip format to write the bomb: one deflated entry, no zip64, no extras.
// Writing it by hand (rather than zipping 200 MB of zeros from disk) keeps it fast, byte-identical
// on every run, and independent of both `zip` and our own `pack`.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

// 2024-01-01 00:00:00 in MS-DOS form, so that the bytes never depend on the clock.
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/** Deflates `size` zero bytes in 1,000,000-byte pieces; returns the compressed bytes and CRC. */
async function deflateZeros(size) {
  const piece = Buffer.alloc(1_000_000);
  const deflate = createDeflateRaw({ level: 9 });
  const chunks = [];
  deflate.on('data', (chunk) => chunks.push(chunk));
  let crc = 0;
  for (let written = 0; written < size; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    crc = crc32(part, crc);
    if (!deflate.write(part)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { data: Buffer.concat(chunks), crc };
}

/** Writes a zip holding one file, `name`, that inflates to `size` zero bytes. Headers are honest. */
export async function writeZeroBomb(zipPath, name, size) {
  const { data, crc } = await deflateZeros(size);
  const nameBytes = Buffer.from(name, 'utf8');

  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
  local.writeUInt16LE(0x0800, 6); // flags: UTF-8 name
  local.writeUInt16LE(8, 8); // method: deflate
  local.writeUInt16LE(DOS_TIME, 10);
  local.writeUInt16LE(DOS_DATE, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  local.writeUInt16LE(0, 28);

  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt16LE(DOS_TIME, 12);
  central.writeUInt16LE(DOS_DATE, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  // extra length, comment length, disk number, internal attributes: all zero
  central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: regular file, rw-r--r--
  central.writeUInt32LE(0, 42); // offset of the local header

  const centralOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8); // entries on this disk
  end.writeUInt16LE(1, 10); // entries in total
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);

  const out = createWriteStream(zipPath);
  for (const part of [local, nameBytes, data, central, nameBytes, end]) out.write(part);
  out.end();
  await once(out, 'finish');
}
