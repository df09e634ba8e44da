import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers every answer of both listeners carries. */
const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // Edits must show on the next reload; a cached stale file would be a confusing lie.
  'Cache-Control': 'no-store',
} as const;

export function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(value));
}

export function sendBody(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': contentType, ...headers });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

export function commonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { ...COMMON_HEADERS, ...extra };
}

/** Why a request body could not be read, as the HTTP status to answer with. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a request body of at most `limit` bytes. A declared or actual size over the limit stops
 * reading at once, so a client cannot make the server buffer more than the limit.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new BodyError(413, `the request body is larger than ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: BodyError) => {
      request.removeAllListeners('data');
      request.resume();
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new BodyError(413, `the request body is larger than ${limit} bytes`));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', () => fail(new BodyError(400, 'the request body could not be read')));
  });
}

/** Parses a JSON request body that must be an object, or says what is wrong with it. */
export async function readJsonObject(request: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // Requiring application/json also forces a CORS preflight on any cross-origin attempt.
  if (type !== 'application/json') throw new BodyError(415, 'send the body as Content-Type: application/json');
  const body = await readBody(request, limit);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new BodyError(400, `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * readJsonObject for a route handler: a body that cannot be had is answered here, with its status
 * and reason (and the connection closed after a 413, whose rest was never read), and gives undefined.
 */
export async function readJsonObjectOrReply(request: IncomingMessage, response: ServerResponse, limit: number): Promise<Record<string, unknown> | undefined> {
  try {
    return await readJsonObject(request, limit);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    sendJson(response, error.status, { error: error.message }, error.status === 413 ? { Connection: 'close' } : {});
    return undefined;
  }
}
