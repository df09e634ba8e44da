import type { BundleReport } from '../core/report/bundle-report.js';
import { sizeLine } from '../core/report/limits.js';
import PAGE_SCRIPT, { PAGE_STYLE, SCRIPT_HASH, STYLE_HASH } from './page-script.generated.js';

export interface PageOptions {
  /** The bundle's name as the page's heading shows it (default: the report's `bundle`). */
  title?: string;
  /** The tool's version, for the page's foot. */
  version?: string;
}

/**
 * The report as one self-contained HTML page: its script (the treemap, the tables) and its style
 * are inline, and its content security policy lets nothing else load, so it works from file://,
 * as a CI artifact, offline. The report travels as JSON in a block the browser never runs; every
 * name reaches the page as text through the script, or escaped here.
 */
export function renderReportPage(report: BundleReport, options: PageOptions = {}): string {
  const title = options.title ?? report.bundle;
  const policy = [
    "default-src 'none'",
    `script-src '${SCRIPT_HASH}'`,
    `style-src '${STYLE_HASH}'`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '); // our own words and base64 hashes: nothing to escape in an attribute
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Bundle report: ${title}`)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Bundle report: <span class="bundle">${escapeHtml(title)}</span></h1>
<p class="size-line">${escapeHtml(sizeLine(report.limits))}</p>
</header>
<main><noscript><p>The pictures and tables of this page are drawn by its script; allow scripts to see them. The report's data is in the page's source, as JSON.</p></noscript></main>
<footer>Made by pipeline-tool${options.version ? ` ${escapeHtml(options.version)}` : ''}. Zipped bytes of a package or a source are its file's zipped bytes, shared out in proportion to what its own text deflates to.</footer>
<script type="application/json" id="report-data">${jsonForScript(report)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element's content or a quoted attribute's value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * JSON inside a script element: `<`, `>` and `&` as \u escapes, so no name can close the element
 * or open a comment, and the line separators JavaScript once refused, for good measure.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
