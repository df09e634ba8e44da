import { MAX_MAP_BYTES } from '../core/source-map/source-placer.js';

/*
 * The files of a page framed from another dev server (the Vite plugin, `dev --url`), read from
 * that server as the browser got them, so that what goes wrong in them can be placed at the
 * author's source: Vite serves each module with its source map inline, in the code it transformed,
 * which exists nowhere on disk. The server is the author's own, but what it sends is handled as
 * hostile input: only addresses on the framed page's origin and below its base path are asked
 * for, with no cookies; a redirect is not followed; a body larger than the limit is not read on;
 * a server that does not answer is given up on.
 */

/** A file larger than this is not read: the limit on a source map read from disk, as validate has it. */
export const MAX_SERVED_BYTES = MAX_MAP_BYTES;
/** How long a server has to send a whole file. */
const TIMEOUT_MS = 10_000;

/** A file as the server sent it, with what it said about the version it sent. */
export interface ServedFile {
  text: string;
  etag: string | null;
  lastModified: string | null;
}

/**
 * The address of `file` (a slash-separated path below `base`, as {@link readServedFile} takes it),
 * or undefined when it would not lie on the base's origin and below its path.
 */
export function servedFileUrl(base: URL, file: string): URL | undefined {
  // The path is decoded: what would be read as a query, a fragment or an escape is escaped again.
  const url = new URL(file.replace(/[%?#]/g, (c) => encodeURIComponent(c)), base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || url.pathname === base.pathname) return undefined;
  return url;
}

/**
 * The text the server at `base` now serves as `file`, or undefined when it cannot be had (an
 * address outside the base, an error, a redirect, a status other than 200, a body over
 * {@link MAX_SERVED_BYTES}, no answer in time). With `previous`, the server is asked whether the
 * file changed (If-None-Match, If-Modified-Since); when it says it did not, `previous` is returned.
 */
export async function readServedFile(base: URL, file: string, previous?: ServedFile, options: ReadServedOptions = {}): Promise<ServedFile | undefined> {
  const url = servedFileUrl(base, file);
  if (url === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (previous?.etag) headers['If-None-Match'] = previous.etag;
  else if (previous?.lastModified) headers['If-Modified-Since'] = previous.lastModified;
  // Aborted, not only cancelled, past the limit: a cancelled body may still be read to its end to
  // keep the connection, and a server could send gigabytes. The deadline is a timer held here
  // until the end, for the whole answer, body included: an AbortSignal.timeout() combined with
  // AbortSignal.any() is held weakly, and once the garbage collector took it, a server sending a
  // byte a second was waited on for ever.
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(), options.timeoutMs ?? TIMEOUT_MS);
  const outer = options.signal;
  const giveUp = () => stop.abort();
  if (outer?.aborted) stop.abort();
  outer?.addEventListener('abort', giveUp, { once: true });
  try {
    return await fetchServed(url, headers, stop, previous);
  } finally {
    clearTimeout(deadline);
    outer?.removeEventListener('abort', giveUp);
  }
}

export interface ReadServedOptions {
  /** How long the server has to send the whole file; default 10 seconds. */
  timeoutMs?: number;
  /** Abort to give up at once (dev closing). */
  signal?: AbortSignal;
}

async function fetchServed(url: URL, headers: Record<string, string>, stop: AbortController, previous: ServedFile | undefined): Promise<ServedFile | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { headers, redirect: 'manual', credentials: 'omit', signal: stop.signal });
  } catch {
    return undefined;
  }
  if (response.status === 304 && previous !== undefined) {
    await response.body?.cancel().catch(() => {});
    return previous;
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (response.status !== 200 || response.body === null || declared > MAX_SERVED_BYTES) {
    if (declared > MAX_SERVED_BYTES) stop.abort();
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  const bytes = await readLimited(response.body, MAX_SERVED_BYTES, stop);
  if (bytes === undefined) return undefined;
  return { text: new TextDecoder().decode(bytes), etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
}

/** The whole body, or undefined when it runs past `limit` bytes or breaks off. */
async function readLimited(body: ReadableStream<Uint8Array>, limit: number, stop: AbortController): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks, size);
      size += value.byteLength;
      if (size > limit) {
        stop.abort();
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
}
