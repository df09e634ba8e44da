import { expect } from 'vitest';
import { UsageError } from '../../src/core/errors.js';

/** The message of the UsageError `promise` rejects with; fails the test if it settles otherwise. */
export async function usageRefusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}
