/**
 * The archive formats people zip a tool with by mistake, known by their first bytes, so that a
 * file that is not a zip can be called what it is (`bundle.tar.gz` is a gzip archive).
 */

export type OtherFormat = 'gzip' | 'tar' | 'bzip2' | 'xz' | 'zstd' | '7z' | 'rar';

/** How many bytes {@link otherFormat} needs: a tar header's "ustar" mark ends at byte 262. */
export const FORMAT_HEAD_BYTES = 262;

const MAGIC: ReadonlyArray<[OtherFormat, number[]]> = [
  ['gzip', [0x1f, 0x8b]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
];

/** The archive format the first bytes of a file announce, when it is one of {@link OtherFormat}. */
export function otherFormat(head: Uint8Array): OtherFormat | undefined {
  for (const [format, magic] of MAGIC) {
    if (head.length >= magic.length && magic.every((byte, index) => head[index] === byte)) return format;
  }
  // POSIX and GNU tar both write "ustar" at offset 257 of the first header.
  if (head.length >= FORMAT_HEAD_BYTES && String.fromCharCode(...head.subarray(257, 262)) === 'ustar') return 'tar';
  return undefined;
}
