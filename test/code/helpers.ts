import type { BundleEntry } from '../../src/core/shipment/source.js';
import { cssScanner } from '../../src/core/code/css-scanner.js';
import { htmlScanner } from '../../src/core/code/html-scanner.js';
import { jsScanner } from '../../src/core/code/js-scanner.js';
import { jsonScanner } from '../../src/core/code/json-scanner.js';
import type { ContentScanner, ScanContext, ScanOutput } from '../../src/core/code/scanner.js';
import { parseManifest } from '../../src/core/manifest/read-manifest.js';
import { goodManifest } from '../helpers/bundles.js';

export interface Hit {
  ruleId: string;
  line?: number;
  column?: number;
  data: Record<string, unknown>;
}

export interface ScanOptions {
  /** Tool type in the manifest; null for a manifest without "type". */
  type?: string | null;
  /** Split the input into chunks of this many bytes (default: one chunk). */
  chunk?: number;
  /** Chunk sizes to cycle through, to put boundaries in odd places. */
  chunks?: number[];
  /** Other files in the bundle (for references). */
  files?: string[];
  path?: string;
  complete?: boolean;
}

function contextFor(options: ScanOptions): ScanContext {
  const manifest = { ...goodManifest } as Record<string, unknown>;
  if (options.type === null) delete manifest.type;
  else if (options.type !== undefined) manifest.type = options.type;
  const files: BundleEntry[] = (options.files ?? []).map((path) => ({ path, kind: 'file', declaredSize: 0, readable: true }));
  return { manifest: parseManifest(Buffer.from(JSON.stringify(manifest))), files };
}

/** Runs one scanner over `text` as the file `path`, fed in the chunks asked for. */
export function scanWith(scanner: ContentScanner, path: string, text: string | Buffer, options: ScanOptions = {}): ScanOutput {
  const context = contextFor(options);
  const entry: BundleEntry = { path, kind: 'file', declaredSize: 0, readable: true };
  const session = scanner.begin(entry, context);
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const sizes = options.chunks ?? [options.chunk ?? Math.max(1, bytes.length)];
  let offset = 0;
  for (let k = 0; offset < bytes.length; k++) {
    const size = sizes[k % sizes.length]!;
    // A copy, as a reader would hand over: nothing may depend on the chunks sharing memory.
    session.write(Buffer.from(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return session.end(options.complete ?? true);
}

function hits(output: ScanOutput): Hit[] {
  return output.findings.map(({ ruleId, line, column, data }) => ({ ruleId, line, column, data }));
}

export const scanJs = (code: string, options: ScanOptions = {}) => hits(scanWith(jsScanner, options.path ?? 'app.js', code, options));
export const scanHtml = (html: string, options: ScanOptions = {}) => hits(scanWith(htmlScanner, options.path ?? 'index.html', html, options));
export const scanCss = (css: string, options: ScanOptions = {}) => hits(scanWith(cssScanner, options.path ?? 'styles.css', css, options));
export const scanJson = (json: string | Buffer, options: ScanOptions = {}) => hits(scanWith(jsonScanner, options.path ?? 'data.json', json, options));

/** Rule ids found, in order. */
export const ids = (found: Hit[]) => found.map((h) => h.ruleId);

/** `ruleId@line:column`, for compact position assertions. */
export const at = (found: Hit[]) => found.map((h) => `${h.ruleId}@${h.line}:${h.column}`);
