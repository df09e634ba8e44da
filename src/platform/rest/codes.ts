/*
 * The `error.code` of every REST API error response, with its HTTP status. Public API like the
 * bridge's codes: never renamed or reused. docs/errors.md documents each one, and a test keeps that
 * table and this catalogue in step.
 */
export const API_ERROR_CODES = {
  INVALID_JSON: { status: 400, meaning: 'The body is not valid JSON.' },
  DUPLICATE_HEADER: { status: 400, meaning: 'The Authorization header was sent more than once, so which key is meant cannot be told.' },
  VALIDATION_FAILED: { status: 400, meaning: 'The body or the query breaks a rule; details lists every problem when there are several. Nothing was saved.' },
  UNAUTHORIZED: { status: 401, meaning: 'The Authorization header is missing, is not `Bearer <key>`, or names no known key.' },
  FORBIDDEN: { status: 403, meaning: "The endpoint is not among the key's scopes." },
  NOT_FOUND: { status: 404, meaning: 'No endpoint has this path, or no quote of the tenant has this id.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The endpoint exists but not for this method; the Allow header lists the methods it takes.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than 1,000,000 bytes.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not sent as Content-Type: application/json.' },
  RATE_LIMITED: { status: 429, meaning: "The key has used up its requests for the current window; Retry-After says how many seconds to wait." },
  SERVER_ERROR: { status: 500, meaning: 'A fault inside the emulator, not in the request. Please report it.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

/** One problem of a request, as `details` lists it. `code` is a problem code of the platform model. */
export interface ApiProblem {
  path: string;
  code: string;
  message: string;
}

/** The body of every error response (decisions.md, REST API v1). */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; details?: ApiProblem[] };
}

/**
 * The error body for `code`. Following decisions.md, `details` appears only when there are
 * several problems; a single one is said in the message.
 */
export function apiErrorBody(code: ApiErrorCode, message: string, problems: readonly ApiProblem[] = []): ApiErrorBody {
  if (problems.length === 1) {
    const [problem] = problems as [ApiProblem];
    return { error: { code, message: `${message}: ${problem.path === '' ? '' : `${problem.path} `}${problem.message} [${problem.code}]` } };
  }
  if (problems.length === 0) return { error: { code, message } };
  const list = problems.map((p) => `${p.path} ${p.message}`).join('; ');
  return { error: { code, message: `${message} (${problems.length} problems): ${list}`, details: [...problems] } };
}
