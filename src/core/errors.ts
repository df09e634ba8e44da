/**
 * A mistake by the person running the tool (a missing file, a bad flag value). The CLI prints its
 * message as one line and exits 2, without a stack trace.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
