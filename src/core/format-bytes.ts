/** 12345678 → "12,345,678". Limits are decimal and exact, so figures are printed in full. */
export function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}

/** Shows a file name safely in a message: control and invisible characters become escapes. */
export function showName(name: string): string {
  return JSON.stringify(name).slice(1, -1).replace(/[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) =>
    `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
