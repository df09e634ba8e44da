import {
  API_BASE_PATH,
  API_ERROR_CODES,
  apiErrorBody,
  BridgeModelError,
  type ApiEndpoint,
  type ApiErrorCode,
  type ApiKey,
  type ApiProblem,
  type BridgeWarning,
  type Platform,
} from '../../platform/index.js';
import { BodyError } from '../http-utils.js';
import type { RateDecision, RateLimiter } from './rate-limit.js';

/*
 * The REST API v1 from request to response, with no socket: who is asking (the Bearer key), how
 * often (the rate limit), what for (the route and the key's scopes), and with what body. The
 * answers come from the platform model, reached through `run`; nothing here knows quotes or
 * paging rules. The order of the checks is part of the contract: a doubled Authorization header
 * (400), then 401, then 429, then 404/405, then 403, then 415, 413 and 400, so a request is counted
 * once its key is known.
 */

/** decisions.md: bodies over 1 MB get 413. Decimal, like the bundle limits. */
export const MAX_API_BODY_BYTES = 1_000_000;

export interface ApiRequest {
  method: string;
  /** The path and query as received, such as `/api/v1/customers?page=2`. */
  target: string;
  /** Every Authorization header received: none, one, or (refused) several. */
  authorization: string | readonly string[] | undefined;
  contentType: string | undefined;
  /** Reads at most MAX_API_BODY_BYTES of the body, or rejects with a BodyError. Called only when a body is needed. */
  readBody: () => Promise<Uint8Array>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value. */
  body: unknown;
  /** What the model warned about while answering (a tax rate that looks like a percentage, an unknown field). */
  warnings: BridgeWarning[];
  /** True when the request changed the tenant's data: a quote was created. */
  changed: boolean;
  /** The emulator's own fault behind a 500, for the terminal. */
  fault?: unknown;
}

export interface ApiServices {
  /** The keys of the data set in use. */
  keys: () => readonly ApiKey[];
  limiter: RateLimiter;
  /** Runs an operation on the platform model, in turn with bridge calls; resolves with its value and the model's warnings. */
  run: <T>(operation: (platform: Platform) => T | Promise<T>) => Promise<{ value: T; warnings: BridgeWarning[] }>;
}

type Method = 'GET' | 'POST';

interface Route {
  endpoints: Partial<Record<Method, ApiEndpoint>>;
  /** The `{id}` of the path, decoded. */
  id?: string;
}

const LIST_METHODS = {
  'GET /api/v1/customers': 'customers.list',
  'GET /api/v1/products': 'products.list',
  'GET /api/v1/quotes': 'quotes.list',
} as const;

/** The endpoint a path names, or undefined. Paths match exactly: no trailing slash, no `..`, case kept. */
export function matchRoute(path: string): Route | undefined {
  switch (path) {
    case `${API_BASE_PATH}/customers`:
      return { endpoints: { GET: 'GET /api/v1/customers' } };
    case `${API_BASE_PATH}/products`:
      return { endpoints: { GET: 'GET /api/v1/products' } };
    case `${API_BASE_PATH}/quotes`:
      return { endpoints: { GET: 'GET /api/v1/quotes', POST: 'POST /api/v1/quotes' } };
  }
  const prefix = `${API_BASE_PATH}/quotes/`;
  if (!path.startsWith(prefix)) return undefined;
  const segment = path.slice(prefix.length);
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return { endpoints: { GET: 'GET /api/v1/quotes/{id}' }, id: decodeURIComponent(segment) };
  } catch {
    return undefined; // malformed percent-encoding names no quote
  }
}

/** The key an Authorization header carries, or why there is none. */
export function readBearerKey(header: string | undefined): { key: string } | { problem: string } {
  if (header === undefined || header.trim() === '') return { problem: 'send your API key as Authorization: Bearer <key>' };
  // The scheme is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  if (!match) return { problem: 'the Authorization header must be "Bearer <key>", with the key and nothing else after it' };
  return { key: match[1]! };
}

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

function fail(code: ApiErrorCode, message: string, headers: Record<string, string>, problems: readonly ApiProblem[] = []): ApiResponse {
  return { status: API_ERROR_CODES[code].status, headers, body: apiErrorBody(code, message, problems), warnings: [], changed: false };
}

function problemsOf(error: BridgeModelError): ApiProblem[] {
  return error.details.map(({ path, code, message }) => ({ path, code, message }));
}

/** `page` and `pageSize` as the list methods take them; text that is not a number is left for the model to refuse. */
function readPaging(query: URLSearchParams): { options: Record<string, unknown>; problems: ApiProblem[] } {
  const options: Record<string, unknown> = {};
  const problems: ApiProblem[] = [];
  for (const name of ['page', 'pageSize']) {
    const values = query.getAll(name);
    if (values.length > 1) problems.push({ path: name, code: 'INVALID_TYPE', message: 'is given more than once' });
    const [value] = values;
    if (value === undefined) continue;
    options[name] = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
  }
  return { options, problems };
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

async function readQuoteBody(request: ApiRequest, headers: Record<string, string>): Promise<{ body: unknown } | ApiResponse> {
  // Requiring application/json also means a browser can never send this cross-site without a preflight.
  if (mediaType(request.contentType) !== 'application/json') {
    return fail('UNSUPPORTED_MEDIA_TYPE', 'send the body as JSON with Content-Type: application/json', headers);
  }
  let bytes: Uint8Array;
  try {
    bytes = await request.readBody();
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    if (error.status === 413) return fail('PAYLOAD_TOO_LARGE', `the body is larger than ${MAX_API_BODY_BYTES} bytes`, { ...headers, Connection: 'close' });
    return fail('INVALID_JSON', error.message, headers);
  }
  try {
    // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not are refused, not replaced. A BOM is dropped.
    return { body: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown };
  } catch (error) {
    return fail('INVALID_JSON', `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, headers);
  }
}

async function answer(endpoint: ApiEndpoint, route: Route, request: ApiRequest, query: URLSearchParams, headers: Record<string, string>, services: ApiServices): Promise<ApiResponse> {
  const ok = (status: number, body: unknown, warnings: BridgeWarning[], extra: Record<string, string> = {}): ApiResponse => ({
    status,
    headers: { ...headers, ...extra },
    body,
    warnings,
    changed: status === 201,
  });
  try {
    if (endpoint === 'GET /api/v1/quotes/{id}') {
      const id = route.id!;
      const { value, warnings } = await services.run((platform) => platform.findApiQuote(id));
      return value === undefined ? fail('NOT_FOUND', 'no quote of this tenant has that id', headers) : ok(200, value, warnings);
    }
    if (endpoint === 'POST /api/v1/quotes') {
      const read = await readQuoteBody(request, headers);
      if ('status' in read) return read;
      const { value, warnings } = await services.run((platform) => platform.createApiQuote(read.body));
      return ok(201, value, warnings, { Location: `${API_BASE_PATH}/quotes/${encodeURIComponent(value.id)}` });
    }
    const { options, problems } = readPaging(query);
    if (problems.length > 0) return fail('VALIDATION_FAILED', 'the query is not valid', headers, problems);
    const { value, warnings } = await services.run((platform) => platform.call(LIST_METHODS[endpoint], [options]));
    const { items, page, pageSize, totalCount } = value as { items: unknown[]; page: number; pageSize: number; totalCount: number };
    return ok(200, { items, page, pageSize, totalCount }, warnings);
  } catch (error) {
    if (error instanceof BridgeModelError && error.code === 'INVALID_ARGUMENT') {
      const what = endpoint === 'POST /api/v1/quotes' ? 'the quote was not created' : 'the query is not valid';
      return fail('VALIDATION_FAILED', what, headers, problemsOf(error));
    }
    throw error;
  }
}

/** Answers one REST API request; a fault of the emulator itself becomes a 500 that carries it. */
export async function handleApiRequest(request: ApiRequest, services: ApiServices): Promise<ApiResponse> {
  // Two keys are no key: a gateway and the service behind it could each pick another one.
  if (typeof request.authorization === 'object' && request.authorization.length > 1) {
    return fail('DUPLICATE_HEADER', 'send the Authorization header once, with one key', {});
  }
  const bearer = readBearerKey(typeof request.authorization === 'object' ? request.authorization[0] : request.authorization);
  // RFC 6750 §3: a 401 names the scheme the client should use.
  const challenge = { 'WWW-Authenticate': 'Bearer realm="pipeline-tool dev"' };
  if ('problem' in bearer) return fail('UNAUTHORIZED', bearer.problem, challenge);
  const apiKey = services.keys().find((candidate) => candidate.key === bearer.key);
  if (apiKey === undefined) return fail('UNAUTHORIZED', 'the API key is not one of the fixtures\' apiKeys', challenge);

  const decision = services.limiter.take(apiKey.key, apiKey.rateLimit);
  const headers = rateHeaders(decision);
  if (!decision.allowed) {
    const message = `this key may make ${decision.limit} requests every ${apiKey.rateLimit.windowSeconds} seconds; try again in ${decision.retryAfter} s`;
    return fail('RATE_LIMITED', message, { ...headers, 'Retry-After': String(decision.retryAfter) });
  }

  const [path = '', search = ''] = request.target.split(/\?(.*)/s, 2);
  const route = matchRoute(path.split('#', 1)[0]!);
  if (route === undefined) return fail('NOT_FOUND', `no endpoint has the path ${JSON.stringify(path.slice(0, 200))}; the API's endpoints are under ${API_BASE_PATH}`, headers);
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  // Own keys only: a method named like an Object property must not find one.
  const endpoint = Object.hasOwn(route.endpoints, method) ? route.endpoints[method as Method] : undefined;
  if (endpoint === undefined) {
    const allowed = Object.keys(route.endpoints).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
    return fail('METHOD_NOT_ALLOWED', `use ${allowed.join(', ')} here`, { ...headers, Allow: allowed.join(', ') });
  }
  if (!apiKey.scopes.has(endpoint)) return fail('FORBIDDEN', `this API key's scopes do not include "${endpoint}"`, headers);
  try {
    return await answer(endpoint, route, request, new URLSearchParams(search), headers, services);
  } catch (error) {
    return { ...fail('SERVER_ERROR', 'internal error in pipeline-tool dev; see its terminal', headers), fault: error };
  }
}
