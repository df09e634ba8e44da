import zlib from 'node:zlib';
import type { Finding } from '../../problem.js';
import type { BundleEntry, BundleSource, ReadResult } from '../../shipment/source.js';
import { crc32 } from './crc32.js';
import { hex } from './local-header.js';
import { openRandomAccess, type RandomAccess, type ReadLimits } from './random-access.js';
import { readZipStructure, type ZipRecord } from './zip-structure.js';

const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
/** Entries that may inflate to at most this much are inflated in one call; larger ones stream. */
const ONE_SHOT_LIMIT = 1024 * 1024;
/** Compressed bytes handed to the streaming inflater at a time. */
const FEED_SIZE = 256 * 1024;

interface ZipEntry extends BundleEntry {
  readonly record: ZipRecord;
}

/** Opens a .zip file as a bundle. Never throws for a malformed archive: that becomes findings. */
export async function openZipSource(path: string, limits?: ReadLimits): Promise<BundleSource> {
  const file = await openRandomAccess(path, limits);
  try {
    const { records, findings } = await readZipStructure(file);
    for (const record of records) {
      if (record.encrypted) findings.push({ ruleId: 'archive-encrypted', file: record.name, data: {} });
      else if (record.method !== METHOD_STORED && record.method !== METHOD_DEFLATE) {
        findings.push({ ruleId: 'archive-compression', file: record.name, data: { method: record.method } });
      }
      if (record.kind === 'directory' && (await carriesData(file, record))) {
        findings.push({ ruleId: 'archive-directory-data', file: record.name, data: { declared: record.uncompressedSize, stored: record.compressedSize } });
      }
    }
    const entries: ZipEntry[] = records.map((record) => ({
      path: record.name,
      kind: record.kind,
      declaredSize: record.uncompressedSize,
      compressedSize: record.compressedSize,
      readable:
        record.dataOffset !== undefined &&
        !record.encrypted &&
        (record.method === METHOD_STORED || record.method === METHOD_DEFLATE),
      record,
    }));
    return {
      kind: 'zip',
      location: path,
      archiveSize: file.size,
      entries,
      findings,
      read: (entry, limit, sink) => readZipEntry(file, entry as ZipEntry, limit, sink, findings),
      close: () => file.close(),
    };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/**
 * Inflates one entry, passing at most `limit` bytes on. The output is never trusted to match the
 * header: inflation stops one byte past the declared size (that byte proves the header lied), and
 * the CRC is checked only when the whole entry was read.
 */
async function readZipEntry(
  file: RandomAccess,
  entry: ZipEntry,
  limit: number,
  sink: (chunk: Buffer) => void,
  findings: Finding[],
): Promise<ReadResult> {
  const { record } = entry;
  if (!entry.readable || record.dataOffset === undefined) return { bytes: 0, stoppedAtLimit: false };
  const cap = Math.min(limit, record.uncompressedSize) + 1;
  let produced = 0;
  let crc = 0;
  let passed = 0;
  const take = (chunk: Buffer): boolean => {
    const room = cap - produced;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    produced += part.length;
    crc = crc32(part, crc);
    const forward = part.subarray(0, Math.max(0, Math.min(part.length, limit - passed)));
    if (forward.length > 0) {
      passed += forward.length;
      sink(forward);
    }
    return produced < cap;
  };

  let inflated: Inflated = { consumed: record.compressedSize };
  if (record.method === METHOD_STORED) {
    await feedStored(file, record, take);
  } else if (record.uncompressedSize < ONE_SHOT_LIMIT && record.compressedSize <= FEED_SIZE * 4) {
    inflated = await inflateOneShot(await file.read(record.dataOffset, record.compressedSize), cap, take);
  } else {
    inflated = await inflateStreaming(file, record, take);
  }

  const sawAll = produced < cap;
  const { failure, consumed } = inflated;
  if (failure) {
    findings.push({ ruleId: 'archive-corrupt-data', file: record.name, data: { reason: failure } });
  } else if (produced > record.uncompressedSize) {
    findings.push({ ruleId: 'archive-size-mismatch', file: record.name, data: { declared: record.uncompressedSize, actual: produced, atLeast: true } });
  } else if (sawAll && produced !== record.uncompressedSize) {
    findings.push({ ruleId: 'archive-size-mismatch', file: record.name, data: { declared: record.uncompressedSize, actual: produced, atLeast: false } });
  } else if (sawAll && crc !== record.crc32) {
    findings.push({ ruleId: 'archive-crc-mismatch', file: record.name, data: { expected: hex(record.crc32), actual: hex(crc) } });
  } else if (sawAll && consumed < record.compressedSize) {
    // The deflate stream ended early: what follows it inside the entry is read by no one here, but
    // an extractor that finds the entry's end by its stream (bsdtar from a pipe, behind a data
    // descriptor) reads it as the next header, and one that checks fails on it.
    findings.push({ ruleId: 'archive-size-mismatch', file: record.name, data: { declared: record.compressedSize, actual: consumed, atLeast: false, compressed: true } });
  }
  return { bytes: passed, stoppedAtLimit: produced > limit };
}

/** What inflating an entry gave besides its bytes: why it failed, and how much compressed data the stream used. */
interface Inflated {
  failure?: string;
  /** Compressed bytes the deflate stream took before it ended (all of them, if it never ended). */
  consumed: number;
}

async function feedStored(file: RandomAccess, record: ZipRecord, take: (chunk: Buffer) => boolean) {
  for (let offset = 0; offset < record.compressedSize; offset += FEED_SIZE) {
    const chunk = await file.read(record.dataOffset! + offset, Math.min(FEED_SIZE, record.compressedSize - offset));
    if (!take(chunk)) return;
  }
}

/**
 * Small entries: one synchronous call, bounded by maxOutputLength so a liar cannot blow it up.
 * An output buffer the size of the cap takes an honest entry whole, so zlib neither grows a list
 * of 16 KB pieces nor copies them into one at the end.
 */
async function inflateOneShot(compressed: Buffer, cap: number, take: (chunk: Buffer) => boolean): Promise<Inflated> {
  let result: { buffer: Buffer; engine: zlib.InflateRaw };
  try {
    // `info` hands back the engine too, whose bytesWritten is the input the stream really used.
    result = zlib.inflateRawSync(compressed, { maxOutputLength: cap, chunkSize: Math.max(zlib.constants.Z_MIN_CHUNK, cap), info: true }) as unknown as typeof result;
  } catch (error) {
    // More than `cap` bytes: stream instead, which stops exactly at the cap and still counts them.
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return streamInflate([compressed], take);
    return { failure: describeZlibError(error), consumed: compressed.length };
  }
  take(result.buffer);
  return { consumed: result.engine.bytesWritten };
}

async function inflateStreaming(file: RandomAccess, record: ZipRecord, take: (chunk: Buffer) => boolean): Promise<Inflated> {
  const pieces = async function* () {
    for (let offset = 0; offset < record.compressedSize; offset += FEED_SIZE) {
      yield await file.read(record.dataOffset! + offset, Math.min(FEED_SIZE, record.compressedSize - offset));
    }
  };
  return streamInflate(pieces(), take);
}

/** Streams compressed pieces through inflate, stopping as soon as `take` says it has enough. */
function streamInflate(pieces: Iterable<Buffer> | AsyncIterable<Buffer>, take: (chunk: Buffer) => boolean): Promise<Inflated> {
  return new Promise((resolve) => {
    const inflater = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let settled = false;
    const finish = (failure: string | undefined) => {
      if (settled) return;
      settled = true;
      const consumed = inflater.bytesWritten;
      inflater.destroy();
      resolve(failure ? { failure, consumed } : { consumed });
    };
    inflater.on('data', (chunk: Buffer) => {
      if (!settled && !take(chunk)) finish(undefined);
    });
    inflater.on('end', () => finish(undefined));
    inflater.on('error', (error) => finish(describeZlibError(error)));
    void (async () => {
      try {
        for await (const piece of pieces) {
          if (settled) return;
          if (!inflater.write(piece)) await drainedOrClosed(inflater);
        }
        if (!settled) inflater.end();
      } catch (error) {
        finish(describeZlibError(error));
      }
    })();
  });
}

/** Waits for room in the stream's buffer, or its end; leaves no listener behind either way. */
function drainedOrClosed(stream: zlib.InflateRaw): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

function describeZlibError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === 'unexpected end of file' ? 'the compressed data ends too early' : `the compressed data is invalid (${message})`;
}

/** Deflating nothing takes 2 bytes (5 with a stored block); a few more is still no data. */
const EMPTY_DEFLATE_MAX = 16;

/**
 * Whether a directory entry holds bytes. Extractors disagree on what to do with them: some write
 * a file of that name, some a folder, some fail. Writers such as Java's jar deflate an empty
 * stream for folders (2 bytes that inflate to nothing), which is no data.
 */
async function carriesData(file: RandomAccess, record: ZipRecord): Promise<boolean> {
  if (record.uncompressedSize > 0) return true;
  if (record.compressedSize === 0 || record.dataOffset === undefined || record.encrypted) return record.compressedSize > 0;
  if (record.method !== METHOD_DEFLATE || record.compressedSize > EMPTY_DEFLATE_MAX) return true;
  try {
    return zlib.inflateRawSync(await file.read(record.dataOffset, record.compressedSize), { maxOutputLength: 1 }).length > 0;
  } catch {
    return true;
  }
}
