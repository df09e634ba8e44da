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
 * Where and why a text that JSON.parse rejected is not JSON. V8's own messages vary by version and
 * often give no position at all, so the text is walked with a small grammar check instead.
 */
export function describeJsonError(text: string): { message: string; line: number; column: number } {
  const { offset, message } = locateJsonError(text);
  return { message, ...positionOf(text, offset) };
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

function locateJsonError(text: string): { offset: number; message: string } {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(at, message);
  };
  const space = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) fail('comments are not allowed in JSON');
      else break;
    }
  };
  const describe = (at: number) => (at >= text.length ? 'the end of the file' : `"${text[at]}"`);
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const code = text.charCodeAt(i);
      if (code < 0x20) fail('a line break or control character inside a string (write \\n instead)');
      if (text[i] === '\\') {
        const next = text[i + 1] ?? '';
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a \\u escape needs four hex digits');
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(next) || next === '') fail(`"\\${next}" is not a JSON escape`);
        i += 2;
        continue;
      }
      i++;
    }
    if (i >= text.length) fail('a string is not closed');
    i++;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail(text[i] === '}' ? 'a trailing comma before "}"' : `expected a property name in double quotes, found ${describe(i)}`);
        string();
        space();
        if (text[i] !== ':') fail(`expected ":" after the property name, found ${describe(i)}`);
        i++;
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return void i++;
        fail(`expected "," or "}" after a property value, found ${describe(i)}`);
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        space();
        if (text[i] === ']') fail('a trailing comma before "]"');
        value();
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return void i++;
        fail(`expected "," or "]" after an array element, found ${describe(i)}`);
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal) return void (i += literal[0].length);
    if (c === "'") fail('strings must use double quotes');
    fail(`unexpected ${describe(i)}`);
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
    return { offset: text.length, message: 'the text is not valid JSON' };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { offset: error.offset, message: error.message };
    throw error;
  }
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
