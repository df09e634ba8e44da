import { cssScanner } from './css-scanner.js';
import { htmlScanner } from './html-scanner.js';
import { jsScanner } from './js-scanner.js';
import { jsonScanner } from './json-scanner.js';
import type { ContentScanner } from './scanner.js';

/** Every content scanner validate runs; each file goes to those that accept it. */
export const contentScanners: readonly ContentScanner[] = [jsScanner, htmlScanner, cssScanner, jsonScanner];

export type { ContentScanner, DisableDirective, ScanContext, ScanOutput, ScanSession } from './scanner.js';
