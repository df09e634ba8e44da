import { realpath, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { openRegularFile } from '../core/regular-file.js';
import { commonHeaders, sendText } from './http-utils.js';
import { injectSdkScript } from './inject-sdk.js';
import { leavesFolder } from '../core/relative-path.js';

/*
 * Serves the tool folder to the tool's frame. The request path is untrusted: it is decoded one
 * segment at a time (so an encoded slash can never become a separator), every climbing or hidden
 * segment is refused, and the real path of the file, after links, must still lie inside the real
 * path of the folder.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** HTML is read whole to insert the SDK; anything bigger is surely not a tool's page. */
const MAX_HTML_BYTES = 20_000_000;

export type PathRequest = { ok: true; segments: string[] } | { ok: false; status: number; message: string };

/** The decoded segments of a request target, or the status to refuse it with. */
export function readRequestPath(target: string): PathRequest {
  // Absolute-form targets (`GET http://elsewhere/ HTTP/1.1`) and `//name` are not file paths.
  if (!target.startsWith('/') || target.startsWith('//')) return { ok: false, status: 400, message: 'the request path must start with a single /' };
  const rawPath = target.split(/[?#]/, 1)[0]!;
  if (rawPath.includes('\\')) return { ok: false, status: 400, message: 'backslashes are not allowed in paths' };
  const segments: string[] = [];
  const raw = rawPath.slice(1).split('/');
  for (let i = 0; i < raw.length; i++) {
    const part = raw[i]!;
    if (part === '' && i === raw.length - 1) {
      if (i === 0) break;
      // `/app.js/` must not serve app.js, as that path fails on the platform; and folders have
      // no pages of their own.
      return { ok: false, status: 404, message: 'not found: a path ending in / names a folder, and folders are not served' };
    }
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return { ok: false, status: 400, message: 'the path has a malformed percent-encoding' };
    }
    if (segment === '') return { ok: false, status: 400, message: 'the path has an empty segment (//)' };
    if (/[/\\\0]/.test(segment)) return { ok: false, status: 400, message: 'encoded slashes, backslashes and NUL are not allowed in paths' };
    if (segment === '.' || segment === '..') return { ok: false, status: 400, message: 'the path may not contain . or .. segments' };
    if (process.platform === 'win32' && segment.includes(':')) return { ok: false, status: 400, message: 'colons are not allowed in paths' };
    // Hidden files hold editor state, VCS data and our own settings; they are never part of a tool.
    if (segment.startsWith('.')) return { ok: false, status: 404, message: 'not found' };
    segments.push(segment);
  }
  return { ok: true, segments };
}

/** True when `child` is `root` itself or lies inside it; both must be real, absolute paths. */
export function isInside(root: string, child: string): boolean {
  const relative = path.relative(root, child);
  return !leavesFolder(relative);
}

/** Opens the file the segments name, or undefined when it is missing, hidden, outside or not a file. */
export async function openToolFile(realRoot: string, segments: readonly string[]): Promise<{ handle: FileHandle; size: number; name: string } | undefined> {
  let real: string;
  try {
    real = await realpath(path.join(realRoot, ...segments));
  } catch {
    return undefined;
  }
  if (!isInside(realRoot, real)) return undefined;
  // A link inside the folder may still point at a hidden file, such as our settings.
  if (path.relative(realRoot, real).split(path.sep).some((part) => part.startsWith('.'))) return undefined;
  try {
    // Not following links: if the file was swapped for one since realpath, it is refused. A named
    // pipe is refused before it can take one of Node's file threads.
    const { handle, info } = await openRegularFile(real, { followLinks: false });
    return { handle, size: info.size, name: real };
  } catch {
    return undefined;
  }
}

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export interface ServeOptions {
  realRoot: string;
  /** The SDK's address, inserted into every HTML page. */
  sdkPath: string;
  /** Scripts inserted just before the SDK, such as the frame reporter. */
  scriptsBefore?: readonly string[];
  /** The body of a 404 for a file that is not there, which may also tell the author; 'not found' when left out. */
  notFound?: (segments: readonly string[]) => Promise<string>;
  /** Extra headers for every file, such as CORS for the sandboxed frame. */
  headers: Record<string, string>;
}

/**
 * Calls `then` when `socket` closes; the answer undoes it. One `close` listener per connection,
 * however many of its answers wait at once (a pipelining client can queue the in-flight limit's
 * worth, which would pass Node's warning threshold of ten listeners).
 */
const closeWaiters = new WeakMap<Socket, Set<() => void>>();
function whenClosed(socket: Socket, then: () => void): () => void {
  let waiters = closeWaiters.get(socket);
  if (waiters === undefined) {
    const set = new Set<() => void>();
    waiters = set;
    closeWaiters.set(socket, set);
    socket.once('close', () => {
      for (const waiter of set) waiter();
      set.clear();
    });
  }
  waiters.add(then);
  const own = waiters;
  return () => own.delete(then);
}

/** Answers a GET or HEAD for a file of the tool folder. */
export async function serveToolFile(segments: readonly string[], response: ServerResponse, options: ServeOptions): Promise<void> {
  const file = await openToolFile(options.realRoot, segments);
  if (file === undefined) {
    sendText(response, 404, options.notFound === undefined ? 'not found' : await options.notFound(segments), options.headers);
    return;
  }
  const { handle, size, name } = file;
  const type = contentTypeOf(name);
  const isHead = response.req.method === 'HEAD';
  try {
    if (type.startsWith('text/html')) {
      if (size > MAX_HTML_BYTES) {
        sendText(response, 413, `HTML files over ${MAX_HTML_BYTES} bytes are not served`, options.headers);
        return;
      }
      const body = injectSdkScript(await handle.readFile(), [...(options.scriptsBefore ?? []), options.sdkPath]);
      response.writeHead(200, commonHeaders({ ...options.headers, 'Content-Type': type, 'Content-Length': String(body.length) }));
      response.end(isHead ? undefined : body);
      return;
    }
    response.writeHead(200, commonHeaders({ ...options.headers, 'Content-Type': type, 'Content-Length': String(size) }));
    if (isHead) {
      response.end();
      return;
    }
    const stream = handle.createReadStream({ autoClose: true });
    stream.on('error', () => response.destroy());
    stream.pipe(response);
    // An answer queued behind others on its connection may never hear that the client left; the
    // connection itself does, and the file is closed then.
    let stopWaiting = () => {};
    await new Promise<void>((resolve) => {
      stream.once('close', resolve);
      response.once('close', resolve);
      stopWaiting = whenClosed(response.req.socket, resolve);
    });
    stopWaiting();
  } finally {
    await handle.close().catch(() => {});
  }
}
