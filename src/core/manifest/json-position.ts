/** Line and column (1-based) of a character offset in a text. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - lineStart + 1 };
}

/**
 * JSON.parse's error, with the position it names turned into line and column. V8 words its
 * messages differently across versions; all of them name the offset as "position N".
 */
export function describeJsonError(text: string, error: unknown): { message: string; line: number; column: number } {
  const raw = error instanceof Error ? error.message : String(error);
  const match = /position (\d+)/.exec(raw);
  const offset = match ? Number(match[1]) : text.length;
  const message = raw.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
  return { message, ...positionOf(text, offset) };
}

export interface KeyPosition {
  key: string;
  line: number;
  column: number;
}

/**
 * Where each top-level key sits, and the keys that appear twice in one object. JSON.parse keeps
 * the last of two silently, but other parsers keep the first, so a duplicated key can mean one
 * thing to us and another to the marketplace. Only called on text that JSON.parse accepted.
 */
export function scanKeys(text: string): { topLevel: Map<string, KeyPosition>; duplicates: KeyPosition[] } {
  const topLevel = new Map<string, KeyPosition>();
  const duplicates: KeyPosition[] = [];
  const stack: { keys: Set<string>; object: boolean }[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push({ keys: new Set(), object: c === '{' });
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack.at(-1)?.object ?? false;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const position = { key: JSON.parse(text.slice(i, j + 1)) as string, ...positionOf(text, i) };
        const scope = stack.at(-1)!;
        if (scope.keys.has(position.key)) duplicates.push(position);
        else if (stack.length === 1) topLevel.set(position.key, position);
        scope.keys.add(position.key);
        expectKey = false;
      }
      i = j;
    }
  }
  return { topLevel, duplicates };
}
