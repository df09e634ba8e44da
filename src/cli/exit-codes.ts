/** The exit-code contract, in one place. */
export const EXIT = {
  /** Clean: nothing to report (or only warnings within --max-warnings). */
  ok: 0,
  /** Problems found: errors, too many warnings, or a broken or hostile bundle. */
  problems: 1,
  /** Could not run: bad flags, a missing path, an internal error. */
  failure: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
