/**
 * 12345678 → "12,345,678", for whole numbers. Grouped by hand: toLocaleString loads the locale data
 * on first use, tens of milliseconds.
 */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A share as a percentage with one decimal (0.094 → "9.4%"); a share that is not nothing never shows as 0.0%. */
export function formatShare(share: number): string {
  const shown = (share * 100).toFixed(1);
  return share > 0 && shown === '0.0' ? '<0.1%' : `${shown}%`;
}

/** 12345678 → "12,345,678 bytes". Limits are decimal and exact, so figures are printed in full. */
export function formatBytes(n: number): string {
  return `${groupDigits(n)} bytes`;
}

/**
 * Characters a name must never put on a terminal as they are: C0 controls (NUL, CR, LF, ESC…),
 * DEL and the C1 range, which can move the cursor, recolour or rewrite lines; bidirectional
 * overrides, isolates and marks, which reorder what is shown; invisible and separator characters;
 * and lone surrogates, which are not text at all.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Shows a name (or any text that contains one) safely: each character above becomes an escape,
 * `\x1b` for the controls and `\u202e` for the rest, and nothing else changes. Applying it twice
 * gives the same text, so a message that already shows its names safely can be passed again.
 */
export function showName(name: string): string {
  return name.replace(UNSHOWABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
