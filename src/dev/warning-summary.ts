import { groupDigits } from '../core/format-bytes.js';
import { describeWarning, type BridgeWarning } from '../platform/index.js';

/*
 * One request can carry thousands of warnings (a REST body with 90,000 unknown keys, an addLines
 * batch of bad lines): written out one per line they would bury the terminal. Each request shows
 * its first few, then counts the rest by code.
 */

/** How many warnings of one request or call the terminal shows in full. */
export const WARNINGS_SHOWN = 5;

/** The lines the terminal shows for one request's warnings: the first WARNINGS_SHOWN, then one line counting the rest. */
export function summariseWarnings(warnings: readonly BridgeWarning[], shown = WARNINGS_SHOWN): string[] {
  const lines = warnings.slice(0, shown).map(describeWarning);
  const rest = warnings.length - lines.length;
  if (rest <= 0) return lines;
  const byCode = new Map<string, number>();
  for (const warning of warnings.slice(shown)) byCode.set(warning.code, (byCode.get(warning.code) ?? 0) + 1);
  const counts = [...byCode].map(([code, count]) => `${groupDigits(count)} ${code}`).join(', ');
  lines.push(`… and ${groupDigits(rest)} more like these (${counts})`);
  return lines;
}
