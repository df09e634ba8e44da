/** The exit-code contract, in one place. */
export const EXIT = {
  /** Clean: nothing to report (or only warnings within --max-warnings). */
  ok: 0,
  /** Problems found: errors, too many warnings, or a broken or hostile bundle. */
  problems: 1,
  /** Could not run: bad flags, a missing path, an internal error. */
  failure: 2,
  /** Stopped by Ctrl-C (SIGINT), after cleaning up; the shell's 128 + signal number. */
  interrupted: 130,
  /** Stopped by SIGTERM, after cleaning up. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
