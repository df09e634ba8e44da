import type { BundleEntry } from '../shipment/source.js';
import { cssScanner } from './css-scanner.js';
import { htmlScanner } from './html-scanner.js';
import { closeCodeThreads, codeThreads, jsScanner } from './js-scanner.js';
import { jsonScanner } from './json-scanner.js';
import type { ContentScanner, ScanContext } from './scanner.js';

/** Every content scanner validate runs; each file goes to those that accept it. */
export const contentScanners: readonly ContentScanner[] = [jsScanner, htmlScanner, cssScanner, jsonScanner];

/**
 * What must be waited for before a file's scanners begin, when a large bundle's scripts are
 * checked on several threads (code-threads.ts): a page, or a script read here, reads and writes
 * what the scripts before it add to the bundle's state, so it waits until they are merged; a
 * script checked as a job waits only while the jobs waiting for their turn hold too much memory.
 * Undefined: begin at once.
 */
export function beforeScans(entry: BundleEntry, context: ScanContext): Promise<void> | undefined {
  const scripts = jsScanner.accepts(entry, context);
  if (!scripts && !htmlScanner.accepts(entry, context)) return undefined;
  const threads = codeThreads(context);
  if (!threads) return undefined;
  return scripts && threads.takes(entry.declaredSize) ? threads.roomToRead() : threads.settled();
}

/** Once every file's output has been taken: the threads of the bundle's checks, if any, are stopped. */
export function afterScans(files: readonly BundleEntry[]): void {
  closeCodeThreads(files);
}

export type { ContentScanner, DisableDirective, ScanContext, ScanOutput, ScanSession } from './scanner.js';
