import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTool, type LoadedTool } from '../../src/testing/index.js';
import { writeFolder } from '../helpers/bundles.js';

/*
 * A promise a page leaves rejected, through loadTool: recorded in tool.errors in words a person
 * reads whatever the page rejected with, at the tool's line when the reason carries a stack, and
 * kept from the test runner; while every other rejection (the test's own, or one of Node's)
 * reaches Node's listeners exactly as without the kit.
 */

const MANIFEST = { name: 'Rejects', shortName: 'Rejects', type: 'quoting_extension', version: '1.0.0', description: 'A test.', entry: 'index.html' };

function writeTool(files: Record<string, string>): string {
  return writeFolder({ 'manifest.json': JSON.stringify(MANIFEST), 'index.html': '<!doctype html><title>T</title><script src="app.js"></script>', 'app.js': '', ...files });
}

let opened: LoadedTool[] = [];
const open = async (folder: string) => {
  const tool = await loadTool(folder);
  opened.push(tool);
  return tool;
};
afterEach(() => {
  for (const tool of opened) tool.close();
  opened = [];
});

/** Runs `code` in the page's realm, as one of its scripts would, then waits for the page to settle. */
async function inPage(tool: LoadedTool, code: string): Promise<void> {
  (tool.window as unknown as { eval(code: string): unknown }).eval(code);
  await tool.settled();
}

/**
 * Node's own listeners for the events, replaced by recorders while `body` runs (vitest's own
 * listener would fail the run on the test's deliberate rejection), then put back.
 */
async function withNodeListeners(body: (seen: { unhandled: unknown[]; handled: unknown[]; warnings: string[] }) => Promise<void>): Promise<void> {
  const saved = { unhandledRejection: process.listeners('unhandledRejection'), rejectionHandled: process.listeners('rejectionHandled') };
  const seen = { unhandled: [] as unknown[], handled: [] as unknown[], warnings: [] as string[] };
  const onUnhandled = (reason: unknown) => seen.unhandled.push(reason);
  const onHandled = (promise: unknown) => seen.handled.push(promise);
  // Node warns of a rejection handled late when nobody answered for it.
  const onWarning = (warning: Error) => seen.warnings.push(warning.name);
  process.on('warning', onWarning);
  process.removeAllListeners('unhandledRejection');
  process.removeAllListeners('rejectionHandled');
  process.on('unhandledRejection', onUnhandled);
  process.on('rejectionHandled', onHandled);
  try {
    await body(seen);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    process.off('rejectionHandled', onHandled);
    process.off('warning', onWarning);
    for (const listener of saved.unhandledRejection) process.on('unhandledRejection', listener);
    for (const listener of saved.rejectionHandled) process.on('rejectionHandled', listener as (promise: Promise<unknown>) => void);
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('what the page rejected with, in words', () => {
  it('an error by its name and message, at the line of the tool that made it', async () => {
    const tool = await open(writeTool({ 'app.js': "\n  Promise.reject(new RangeError('too far'));\nPromise.reject(new Error('plain'));\n" }));
    expect(tool.errors).toEqual(['unhandled rejection at app.js:2:18: RangeError: too far', 'unhandled rejection at app.js:3:16: Error: plain']);
    expect(tool.console).toEqual(tool.errors.map((message) => ({ level: 'error', message })));
  });

  it("an error whose name is empty or not a string is an Error; an object with a string message is told as one", async () => {
    const tool = await open(writeTool({}));
    await inPage(
      tool,
      `
      const blank = new Error('no name'); blank.name = '';
      Promise.reject(blank);
      Promise.reject(Object.assign(new Error('odd name'), { name: 42 }));
      Promise.reject({ name: 'BridgeError', message: 'from elsewhere' });
      Promise.reject({ message: 'message only' });
      `,
    );
    expect(tool.errors.map((line) => line.replace(/ at app\.js:\d+:\d+| at index\.html:\d+:\d+/, ''))).toEqual([
      'unhandled rejection: Error: no name',
      'unhandled rejection: Error: odd name',
      'unhandled rejection: BridgeError: from elsewhere',
      'unhandled rejection: Error: message only',
    ]);
  });

  it('a string as it is, anything else as JSON, and what JSON cannot write as text', async () => {
    const tool = await open(writeTool({}));
    await inPage(
      tool,
      `
      Promise.reject('just words');
      Promise.reject({ code: 7, message: 8 });
      Promise.reject([1, 'a']);
      Promise.reject(null);
      Promise.reject();
      Promise.reject(() => 1);
      const loop = { a: 1 }; loop.self = loop;
      Promise.reject(loop);
      Promise.reject(12n);
      Promise.reject(Symbol('s'));
      `,
    );
    expect(tool.errors).toEqual([
      'unhandled rejection: just words',
      'unhandled rejection: {"code":7,"message":8}',
      'unhandled rejection: [1,"a"]',
      'unhandled rejection: null',
      'unhandled rejection: undefined',
      'unhandled rejection: () => 1',
      'unhandled rejection: [object Object]',
      'unhandled rejection: 12',
      'unhandled rejection: Symbol(s)',
    ]);
  });
});

describe("the tool's line", () => {
  it("is the first place in the stack that lies in the tool's own files, its name decoded", async () => {
    const tool = await open(
      writeFolder({
        'manifest.json': JSON.stringify(MANIFEST),
        'index.html': '<!doctype html><title>T</title><script src="my%20lib/a%C3%A9.js"></script>\n<script>\n  helper();\n</script>',
        'my lib/aé.js': "function helper() {\n  Promise.reject(new TypeError('deep'));\n}\n",
      }),
    );
    expect(tool.errors).toEqual(['unhandled rejection at my lib/aé.js:2:18: TypeError: deep']);
  });

  it('skips places elsewhere, keeps a name that does not decode as it is, and is left out without a stack', async () => {
    const tool = await open(writeTool({}));
    const reject = (stack: unknown) => `Promise.reject({ name: 'E', message: 'm', stack: ${JSON.stringify(stack)} });`;
    await inPage(
      tool,
      [
        reject('E: m\n    at f (https://cdn.example.com/lib.js:9:9)\n    at https://tool.pipeline.test/app.js:4:2'),
        reject('E: m\n    at https://tool.pipeline.testing/app.js:1:1\n    at g (https://tool.pipeline.test/sub/b%E9.js:7:3)'),
        reject('E: m\n    at https://cdn.example.com/only.js:1:1'),
        reject('E: m\n    at https://tool.pipeline.test/app.js:12'),
        reject('E: m\n    at h (https://tool.pipeline.test/app.js:123:45)'),
        'Promise.reject({ name: "E", message: "m", stack: 5 });',
      ].join('\n'),
    );
    expect(tool.errors).toEqual([
      'unhandled rejection at app.js:4:2: E: m',
      'unhandled rejection at sub/b%E9.js:7:3: E: m',
      'unhandled rejection: E: m',
      'unhandled rejection: E: m',
      'unhandled rejection at app.js:123:45: E: m',
      'unhandled rejection: E: m',
    ]);
  });
});

describe('whose rejection goes where', () => {
  it('is decided by one hook on process.emit, put in by the first page and kept for every later one', async () => {
    await open(writeTool({}));
    const hooked = process.emit;
    await open(writeTool({}));
    await open(writeTool({}));
    // A hook per page would nest, and every event of the process would pass through all of them.
    expect(process.emit).toBe(hooked);
  });

  it("each page's to its own errors, and none to Node's listeners, even when handled later", async () => {
    const first = await open(writeTool({}));
    const second = await open(writeTool({}));
    await withNodeListeners(async (seen) => {
      await inPage(second, "window.late = Promise.reject(new Error('second'));");
      await inPage(first, "Promise.reject(new Error('first'));");
      await inPage(second, 'window.late.catch(() => {});');
      await turn();
      await turn();
      expect(seen).toEqual({ unhandled: [], handled: [], warnings: [] });
    });
    expect(first.errors.map((line) => line.replace(/ at \S+/, ''))).toEqual(['unhandled rejection: Error: first']);
    expect(second.errors.map((line) => line.replace(/ at \S+/, ''))).toEqual(['unhandled rejection: Error: second']);
  });

  it("the page's own kinds of promise too: a subclass of its Promise, and an async function's", async () => {
    const tool = await open(writeTool({}));
    await withNodeListeners(async (seen) => {
      await inPage(tool, "class Later extends Promise {}\nclass Latest extends Later {}\nLatest.reject(new Error('subclass'));\n(async () => { throw new Error('async'); })();");
      expect(seen.unhandled).toEqual([]);
    });
    expect(tool.errors.map((line) => line.replace(/ at \S+/, ''))).toEqual(['unhandled rejection: Error: subclass', 'unhandled rejection: Error: async']);
  });

  it("the test's own rejections reach Node's listeners as before, a page being open", async () => {
    const tool = await open(writeTool({}));
    await withNodeListeners(async (seen) => {
      const own = new Error('the test');
      const late = Promise.reject(own);
      await turn();
      expect(seen.unhandled).toEqual([own]);
      late.catch(() => {});
      await turn();
      expect(seen.handled).toEqual([late]);
      expect(seen.warnings).toEqual([]);
      // Hand-made events, with something else or nothing for the promise: passed on too.
      for (const promise of ['no promise', null, undefined]) process.emit('unhandledRejection', 'odd', promise as unknown as Promise<unknown>);
      process.emit('rejectionHandled' as 'exit', undefined as unknown as number);
      expect(seen.unhandled).toEqual([own, 'odd', 'odd', 'odd']);
      expect(seen.handled).toEqual([late, undefined]);
    });
    expect(tool.errors).toEqual([]);
    // Other events pass through the same hook untouched.
    let heard: unknown[] = [];
    const listener = (...args: unknown[]) => (heard = args);
    process.on('pipeline-tool-test-event' as 'exit', listener);
    expect(process.emit('pipeline-tool-test-event' as 'exit', 1)).toBe(true);
    process.off('pipeline-tool-test-event' as 'exit', listener);
    expect(heard).toEqual([1]);
    expect(process.emit('pipeline-tool-test-event' as 'exit', 1)).toBe(false);
  });

  it('lets a page nobody holds any more be collected, closed or not, and still records the rejections of the pages in use', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const folder = writeTool({});
    /** A weak reference to the realm of a page loaded and then dropped. */
    const dropped = async (close: boolean) => {
      const tool = await loadTool(folder);
      await inPage(tool, "Promise.reject(new Error('before'));");
      expect(tool.errors).toHaveLength(1);
      if (close) tool.close();
      return new WeakRef(tool.window.Promise.prototype);
    };
    const closed = await dropped(true);
    const unclosed = await dropped(false);
    // A weak reference holds its target until the current job ends: collect between turns.
    for (let round = 0; round < 5 && (closed.deref() !== undefined || unclosed.deref() !== undefined); round++) {
      await turn();
      gc();
    }
    expect([closed.deref(), unclosed.deref()]).toEqual([undefined, undefined]);
    const tool = await loadTool(folder);
    opened.push(tool);
    await inPage(tool, "Promise.reject(new Error('after'));");
    expect(tool.errors.map((line) => line.replace(/ at \S+/, ''))).toEqual(['unhandled rejection: Error: after']);
  });
});
