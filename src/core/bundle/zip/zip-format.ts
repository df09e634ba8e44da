import type { Finding } from '../../problem.js';

// Record signatures and fixed sizes from the ZIP application note (APPNOTE.TXT).
export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_ZIP64_EOCD = 0x06064b50;
export const SIG_ZIP64_LOCATOR = 0x07064b50;
export const SIG_DESCRIPTOR = 0x08074b50;
export const EOCD_SIZE = 22;
export const ZIP64_EOCD_SIZE = 56;
export const ZIP64_LOCATOR_SIZE = 20;
export const CENTRAL_SIZE = 46;
export const LOCAL_SIZE = 30;
export const MAX_COMMENT = 0xffff;

/** A 32-bit size or offset set to this means "the real value is in the Zip64 extra field". */
export const ZIP64_MARK = 0xffffffff;
export const ZIP64_COUNT_MARK = 0xffff;

export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DESCRIPTOR = 0x0008;
/** PKWARE's "compressed patched data": the entry holds a patch, not the file. */
export const FLAG_PATCHED = 0x0020;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
export const FLAG_UTF8 = 0x0800;
export const METHOD_AES = 99;

/**
 * A 64-bit little-endian field as a number. Values past 2^53 lose precision, which is harmless:
 * anything that large points far past the end of any file this reader will meet.
 */
export function readUInt64(buffer: Buffer, at: number): number {
  return Number(buffer.readBigUInt64LE(at));
}

export function notZip(size: number): Finding {
  return { ruleId: 'archive-not-zip', data: { size } };
}

export function truncated(reason: string): Finding {
  return { ruleId: 'archive-truncated', data: { reason } };
}

export function corrupt(reason: string, file?: string): Finding {
  return { ruleId: 'archive-corrupt', ...(file !== undefined ? { file } : {}), data: { reason } };
}
