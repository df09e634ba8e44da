import { describe, expect, it } from 'vitest';
import { placeStorageError, storageApiOf } from '../../src/dev/storage-errors.js';
import type { ToolProblem } from '../../src/dev/tool-problems.js';

const REFUSED = "SecurityError: Failed to read the 'localStorage' property from 'Window': The document is sandboxed and lacks the 'allow-same-origin' flag.";
const use = (file: string, line: number, column: number, api = 'localStorage') => ({ ruleId: 'browser-storage', file, line, column, data: { api } });
const inReact: ToolProblem = { kind: 'error', message: REFUSED, file: 'node_modules/react-dom/cjs/react-dom-client.development.js', line: 28656, column: 20, served: { file: 'node_modules/.vite/deps/react-dom_client.js', line: 9, column: 3 } };

describe('a storage SecurityError of the sandbox', () => {
  it('is known by the API it names', () => {
    expect(storageApiOf(REFUSED)).toBe('localStorage');
    expect(storageApiOf("Uncaught SecurityError: Failed to set the 'cookie' property on 'Document': The document is sandboxed")).toBe('document.cookie');
    expect(storageApiOf('TypeError: localStorage is undefined')).toBeUndefined();
  });

  it("is placed at the tool's one use of that storage when the browser names the framework's code", () => {
    const placed = placeStorageError(inReact, [use('src/App.tsx', 8, 17), use('src/Other.tsx', 3, 1, 'sessionStorage'), use('node_modules/lib/index.js', 1, 1)]);
    expect(placed).toMatchObject({ file: 'src/App.tsx', line: 8, column: 17 });
    expect(placed.served).toBeUndefined();
    expect(placed.message).toContain(REFUSED);
    expect(placed.message).toContain('this is where the tool uses localStorage');
  });

  it("stays where the browser put it when a use is there, and prefers a use in the caller's file", () => {
    const direct: ToolProblem = { kind: 'error', message: REFUSED, file: 'src/app.js', line: 4, column: 9 };
    expect(placeStorageError(direct, [use('src/app.js', 4, 3), use('src/other.js', 1, 1)])).toBe(direct);
    const caller: ToolProblem = { ...direct, line: 10 };
    expect(placeStorageError(caller, [use('src/app.js', 2, 3), use('src/other.js', 1, 1)])).toMatchObject({ file: 'src/app.js', line: 2, column: 3 });
  });

  it("lists the uses when there are several, and says plainly that there is no place when nothing tells, never naming the framework's file", () => {
    const several = placeStorageError(inReact, [use('src/a.tsx', 1, 1), use('src/b.tsx', 2, 2)]);
    expect(several).toMatchObject({ file: null, line: null });
    expect(several.message).toContain('the tool uses localStorage at src/a.tsx:1:1, src/b.tsx:2:2');
    const none = placeStorageError(inReact, []);
    expect(none).toMatchObject({ file: null, line: null, column: null });
    expect(none.message).toContain("no place in the tool's own code");
    expect(none.message).not.toContain('react-dom');
  });

  it('leaves every other problem alone', () => {
    const other: ToolProblem = { kind: 'error', message: 'TypeError: x is undefined', file: 'node_modules/vue/dist/vue.js', line: 1, column: 1 };
    expect(placeStorageError(other, [use('src/App.vue', 3, 3)])).toBe(other);
  });
});
