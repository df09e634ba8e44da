import type { RateLimit } from '../../platform/index.js';

/*
 * Per-key rate limiting as decisions.md rules it: a fixed window that starts at the window's
 * first request and lasts windowSeconds; within it, at most `requests` requests. The clock is
 * passed in, so the rules can be tested without waiting.
 */

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Unix time in whole seconds, rounded up, when the current window ends. */
  resetAt: number;
  /** Whole seconds, rounded up, until a request is allowed again; 0 when this one was. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts one request of `key` under `limit` and says whether it may go through. */
  take(key: string, limit: RateLimit): RateDecision;
}

/** @param now milliseconds since the Unix epoch, Date.now by default. */
export function createRateLimiter(now: () => number = Date.now): RateLimiter {
  // Only known keys reach the limiter, so this holds one entry per key of the fixtures.
  const windows = new Map<string, { endsAt: number; used: number }>();
  return {
    take(key, limit) {
      const time = now();
      let window = windows.get(key);
      if (window === undefined || time >= window.endsAt) {
        window = { endsAt: time + limit.windowSeconds * 1000, used: 0 };
        windows.set(key, window);
      }
      const allowed = window.used < limit.requests;
      if (allowed) window.used += 1;
      return {
        allowed,
        limit: limit.requests,
        remaining: Math.max(0, limit.requests - window.used),
        resetAt: Math.ceil(window.endsAt / 1000),
        retryAfter: allowed ? 0 : Math.max(1, Math.ceil((window.endsAt - time) / 1000)),
      };
    },
  };
}
