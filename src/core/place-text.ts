/**
 * A place as the terminal, the dev panels and the report page write it: `src/App.tsx:12:5`; the
 * column, or the line and the column, left out when not known. Imports nothing, so that the
 * report page's script (bundled for the browser) can use it too.
 */
export function placeText(file: string, line?: number | null, column?: number | null): string {
  if (line === undefined || line === null) return file;
  return column === undefined || column === null ? `${file}:${line}` : `${file}:${line}:${column}`;
}
