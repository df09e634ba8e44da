/*
 * A promise a page leaves rejected. In a browser that is the page's own `unhandledrejection`
 * event, which `pipeline-tool dev` shows in its problems box. jsdom runs the page in a realm of the
 * test's own process, so Node meets the rejection instead: `node --test` fails the test that
 * happens to be running (or crashes), and vitest fails the whole run, far from the tool's line.
 *
 * So while a page lives, Node's 'unhandledRejection' (and 'rejectionHandled') for a promise made
 * in that page's realm goes to the page, which records it as the host would; every other
 * rejection reaches Node's listeners exactly as before. A page is known by its realm's Promise
 * prototype, the key of a WeakMap, so a page nobody uses any more is still collected. (The
 * function that records a rejection reaches the page's window, so a list that held it, beside a
 * weak reference to the prototype, kept every page alive for as long as the process ran.)
 */

/** Each watched page's Promise prototype, and what records its rejections. */
const pages = new WeakMap<object, (reason: unknown) => void>();
let installed = false;

/** What records the rejections of `promise`: the page of a prototype in its chain, if any. */
function reportOf(promise: unknown): ((reason: unknown) => void) | undefined {
  // Node always gives the promise; a hand-made event may not.
  if (promise === null || promise === undefined) return undefined;
  for (let prototype = Object.getPrototypeOf(promise) as object | null; prototype !== null; prototype = Object.getPrototypeOf(prototype) as object | null) {
    const report = pages.get(prototype);
    if (report !== undefined) return report;
  }
  return undefined;
}

/**
 * Node asks `process.emit` whether anyone handled an unhandled rejection: answering true for a
 * page's promise keeps it from the runner. Installed once; it passes everything else on.
 */
function install(): void {
  if (installed) return;
  installed = true;
  const emit = process.emit;
  process.emit = function emitUnlessPage(this: NodeJS.Process, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'unhandledRejection' || event === 'rejectionHandled') {
      const report = reportOf(event === 'unhandledRejection' ? args[1] : args[0]);
      if (report !== undefined) {
        if (event === 'unhandledRejection') report(args[0]);
        return true;
      }
    }
    return (emit as (this: NodeJS.Process, event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof process.emit;
}

/**
 * Sends the unhandled rejections of promises made in the realm whose Promise is `PagePromise` to
 * `report`, for as long as that realm lives. Take `PagePromise` before the page's scripts run, so
 * that a page replacing its global Promise changes nothing.
 */
export function catchPageRejections(PagePromise: PromiseConstructor, report: (reason: unknown) => void): void {
  install();
  pages.set(PagePromise.prototype, report);
}

/** The first place in a stack that lies in `origin`: the tool's line, as `app.js:12:5`. */
export function toolPlaceIn(stack: unknown, origin: string): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const prefix = `${origin}/`;
  for (const match of stack.matchAll(/(https?:\/\/[^\s()]+?):(\d+):(\d+)/g)) {
    if (match[1]!.startsWith(prefix)) return `${decodePath(match[1]!.slice(prefix.length))}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

function decodePath(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** What a rejection's reason says, errors of any realm included: `BridgeError: …`. */
export function describeReason(reason: unknown): string {
  if (typeof reason === 'object' && reason !== null && typeof (reason as { message?: unknown }).message === 'string') {
    const { name, message } = reason as { name?: unknown; message: string };
    return `${typeof name === 'string' && name !== '' ? name : 'Error'}: ${message}`;
  }
  if (typeof reason === 'string') return reason;
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}
