/*
 * The REST API's endpoints, and the API keys that may call them (platform-spec §4.1, §5.3, §8).
 * The spec says keys are scoped to endpoints and rate limited, but not how scopes are written:
 * here a scope is the endpoint itself, as "METHOD path" with `{id}` for the path parameter.
 */

/** Every REST path begins here (platform-spec §9.1). */
export const API_BASE_PATH = '/api/v1';

/** The five endpoints of REST API v1, each also the scope that lets a key call it. */
export const API_ENDPOINTS = [
  'GET /api/v1/customers',
  'GET /api/v1/products',
  'GET /api/v1/quotes',
  'GET /api/v1/quotes/{id}',
  'POST /api/v1/quotes',
] as const;

export type ApiEndpoint = (typeof API_ENDPOINTS)[number];

export interface RateLimit {
  /** Requests allowed in one window. */
  requests: number;
  /** Length of a window, which starts at its first request. */
  windowSeconds: number;
}

/** The spec leaves the default open; decisions.md rules 60 requests per 60 seconds. */
export const DEFAULT_API_RATE_LIMIT: Readonly<RateLimit> = Object.freeze({ requests: 60, windowSeconds: 60 });

/** An API key as a fixture file gives it. */
export interface FixtureApiKey {
  key: string;
  /** The endpoints the key may call; every endpoint when left out. */
  scopes?: ApiEndpoint[];
  /** The default rate limit when left out. */
  rateLimit?: RateLimit;
}

/** An API key with its defaults filled in. It belongs to the data set's tenant. */
export interface ApiKey {
  key: string;
  scopes: ReadonlySet<ApiEndpoint>;
  rateLimit: RateLimit;
}

export function resolveApiKeys(keys: readonly FixtureApiKey[]): ApiKey[] {
  return keys.map((key) => ({
    key: key.key,
    scopes: new Set(key.scopes ?? API_ENDPOINTS),
    rateLimit: { ...(key.rateLimit ?? DEFAULT_API_RATE_LIMIT) },
  }));
}

/** The key to offer an integrator first: the first one that may call every endpoint, else the first. */
export function readyApiKey(keys: readonly ApiKey[]): string | null {
  const full = keys.find((key) => API_ENDPOINTS.every((endpoint) => key.scopes.has(endpoint)));
  return (full ?? keys[0])?.key ?? null;
}
