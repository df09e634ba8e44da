/*
 * A small script the dev server puts into every page of the tool, ahead of the SDK and of the
 * tool's own scripts, so that nothing the tool does goes unseen: uncaught errors (syntax errors in
 * its scripts included), unhandled promise rejections, console.error, and what the sandbox
 * silently blocks (window.open, form submission, links that leave the frame). Each becomes a
 * `pipeline:report` message to the host page, which shows it and passes it to the terminal:
 *   frame → host  {type: 'pipeline:report', report: {kind, message, file, line, column}}
 * It changes nothing the tool can observe, apart from two things needed for exact places:
 *
 * - A classic <script src> of the tool's own origin is loaded in CORS mode (the crossorigin
 *   attribute, set before the script is fetched). The frame's origin is opaque, so without CORS
 *   the browser hides the details of the script's errors ("Script error.", no file, no line).
 *   The tool origin allows the opaque origin, so the script loads as before, now with its errors
 *   told in full. Scripts of other origins are left alone: their servers may not allow CORS.
 * - console.error, window.open, form.submit/requestSubmit and alert/confirm/prompt are wrapped;
 *   each still does what it did (a dialog is ignored, as the platform's sandbox ignores it).
 */

export interface ReporterConfig {
  /** Where the host page lives; reports go only there. */
  hostOrigin: string;
  /**
   * Load the page's own classic scripts in CORS mode (see above); true when left out. False for a
   * page of another dev server (`dev --url`), which may not allow the opaque origin.
   */
  corsScripts?: boolean;
}

export type ReportKind = 'error' | 'rejection' | 'console' | 'blocked';

/** The browser code, kept as a plain function so the compiler checks it. */
function runReporter(config: ReporterConfig): void {
  const MAX_REPORTS = 200;
  const MAX_TEXT = 2000;
  const parentWindow = window.parent;
  if (parentWindow === window) return;
  let sent = 0;
  /**
   * Which code of the page a report comes from: new at each load of the page and at each hot
   * update, so that dev asks the page's server for a script again only when it may have changed.
   */
  const newVersion = () => `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  let version = newVersion();

  const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
  /**
   * The first place in a stack that is the tool's own: the line that threw, or called. The SDK's
   * and this reporter's frames (served under /__pipeline/, outside the tool's folder) are passed
   * over, so a wrapped console.error, or a bridge call the host refused, points at the tool.
   */
  const placeIn = (stack: unknown): { file: string | null; line: number | null; column: number | null } => {
    const places = typeof stack === 'string' ? [...stack.matchAll(/(https?:\/\/[^\s()]+?):(\d+):(\d+)/g)] : [];
    const place = places.find((found) => !/^https?:\/\/[^/]+\/__pipeline\//.test(found[1]!));
    return place === undefined ? { file: null, line: null, column: null } : { file: place[1]!, line: Number(place[2]), column: Number(place[3]) };
  };
  const describe = (value: unknown): string => {
    // A DOMException (the sandbox's SecurityError) is an Error; one from another realm is at least named.
    if (value instanceof Error || (typeof value === 'object' && value !== null && typeof (value as Error).name === 'string' && typeof (value as Error).message === 'string')) {
      return `${(value as Error).name}: ${(value as Error).message}`;
    }
    if (typeof value === 'string') return value;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  };
  const report = (kind: ReportKind, message: string, place: { file: string | null; line: number | null; column: number | null }) => {
    if (sent > MAX_REPORTS) return;
    sent += 1;
    const text = sent > MAX_REPORTS ? `More than ${MAX_REPORTS} reports from this page; the rest are left out until it reloads.` : clip(message);
    try {
      parentWindow.postMessage({ type: 'pipeline:report', report: { kind, message: text, ...place, version } }, config.hostOrigin);
    } catch {
      // Nothing to report to; the tool must not notice.
    }
  };

  /** Browser wordings that do not say what happened, with what does. */
  const plainly = (message: string): string => {
    if (/permission to navigate the target frame|allow-top-navigation/i.test(message)) {
      return `${message} (The sandbox keeps the tool from navigating the host page: it has no allow-top-navigation. Stay inside the tool's frame.)`;
    }
    if (message === 'Script error.') return 'Script error. (A script of another origin threw; the browser hides its message and place.)';
    return message;
  };

  window.addEventListener(
    'error',
    (event) => {
      // Only script errors: a failed load of an element is an Event, and the server reports
      // the tool's own missing files itself.
      if (!(event instanceof ErrorEvent)) return;
      const fromError = placeIn((event.error as { stack?: unknown } | null)?.stack);
      const file = event.filename || fromError.file;
      // What reportError() reports (React does so for an error in an effect) Chromium words as
      // "Uncaught " alone: the error itself says what happened.
      const worded = /^(Uncaught)?\s*$/.test(event.message) && event.error !== undefined && event.error !== null ? describe(event.error) : event.message;
      report('error', plainly(worded || describe(event.error)), {
        file: file || null,
        line: event.lineno || fromError.line,
        column: event.colno || fromError.column,
      });
    },
    true,
  );
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    report('rejection', plainly(`Unhandled promise rejection: ${describe(reason)}`), placeIn((reason as { stack?: unknown } | null)?.stack));
  });

  let updateFailed = false;
  // eslint-disable-next-line no-console -- the tool's own console, which the author reads
  const consoleError = console.error;
  // eslint-disable-next-line no-console -- wrapped, so that the host page sees it too
  console.error = function (...args: unknown[]) {
    if (args.some((arg) => typeof arg === 'string' && arg.startsWith('Failed to reload '))) updateFailed = true;
    report('console', `console.error: ${args.map(describe).join(' ')}`, placeIn(new Error().stack));
    return consoleError.apply(this, args);
  };

  const open = window.open;
  window.open = function (...args: Parameters<typeof window.open>) {
    const target = args[0] === undefined ? '' : String(args[0]);
    report('blocked', `window.open(${JSON.stringify(target)}) was blocked: the sandbox has no allow-popups, so no window opens and it returns null. Show the content inside the tool instead.`, placeIn(new Error().stack));
    return open.apply(this, args);
  };

  // The sandbox has no allow-modals: a dialog returns at once (alert undefined, confirm false,
  // prompt null) and the user sees nothing, which is why the author must hear of it.
  const ignored: Record<string, string> = { alert: 'undefined', confirm: 'false', prompt: 'null' };
  for (const name of ['alert', 'confirm', 'prompt'] as const) {
    const original = window[name] as (...args: unknown[]) => unknown;
    window[name] = function (this: unknown, ...args: unknown[]) {
      const text = args[0] === undefined ? '' : String(args[0]);
      report(
        'blocked',
        `${name}(${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}) was ignored: the sandbox has no allow-modals, so no dialog opens and it returns ${ignored[name]!}. Show the message or question in the page itself.`,
        placeIn(new Error().stack),
      );
      return original.apply(this, args);
    } as never;
  }

  // A framed page's dev server applied a hot update (the Vite plugin's page dispatches these events
  // on Vite's vite:beforeUpdate and vite:afterUpdate): what the old code reported is over, unless
  // the update itself failed (Vite's client then logs "Failed to reload …" between the two).
  window.addEventListener('pipeline:hot-update-start', () => {
    updateFailed = false;
    version = newVersion();
  });
  window.addEventListener('pipeline:hot-update', () => {
    version = newVersion();
    if (updateFailed) return;
    try {
      parentWindow.postMessage({ type: 'pipeline:updated' }, config.hostOrigin);
    } catch {
      // Nothing to tell.
    }
  });

  const formBlocked = (how: string, place = placeIn(new Error().stack)) =>
    report('blocked', `A form submission (${how}) was blocked: the sandbox has no allow-forms, so forms never submit and their submit event never fires. Handle the button's click instead.`, place);
  for (const name of ['submit', 'requestSubmit'] as const) {
    const original = HTMLFormElement.prototype[name] as (...args: unknown[]) => void;
    HTMLFormElement.prototype[name] = function (this: HTMLFormElement, ...args: unknown[]) {
      formBlocked(`form.${name}()`);
      return original.apply(this, args);
    };
  }
  const noPlace = { file: null, line: null, column: null };
  // Bubbling listeners on window run after the tool's own, so a default they prevented is seen.
  window.addEventListener('click', (event) => {
    if (event.defaultPrevented || !(event.target instanceof Element)) return;
    const button = event.target.closest('button, input');
    if (button instanceof HTMLButtonElement || button instanceof HTMLInputElement) {
      const submits = button instanceof HTMLButtonElement ? button.type === 'submit' : button.type === 'submit' || button.type === 'image';
      if (submits && button.form !== null) formBlocked(`a click on a submit button`, noPlace);
      return;
    }
    const link = event.target.closest('a[href], area[href]');
    if (link === null) return;
    const target = (link.getAttribute('target') ?? '').toLowerCase();
    const href = link.getAttribute('href') ?? '';
    if (target === '_blank') report('blocked', `The link to ${href} opens a new window, which the sandbox blocks (no allow-popups).`, noPlace);
    else if (target === '_top' || target === '_parent')
      report('blocked', `The link to ${href} would leave the tool's frame (target ${target}), which the sandbox blocks (no allow-top-navigation).`, noPlace);
  });
  window.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.key !== 'Enter' || !(event.target instanceof HTMLInputElement) || event.target.form === null) return;
    if (['text', 'email', 'number', 'password', 'search', 'tel', 'url', 'date'].includes(event.target.type)) formBlocked('Enter in a form field', noPlace);
  });

  if (config.corsScripts === false) return;
  // Set before the browser fetches the script: the parser hands a script element to mutation
  // observers (a microtask checkpoint) before it prepares and fetches it.
  const ownOrigin = new URL(document.baseURI).origin;
  const useCors = (node: Node) => {
    if (!(node instanceof HTMLScriptElement) || node.hasAttribute('crossorigin') || node.type === 'module' || !node.src) return;
    if (new URL(node.src, document.baseURI).origin === ownOrigin) node.crossOrigin = 'anonymous';
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(useCors);
  }).observe(document, { childList: true, subtree: true });
}

/** The script served at the reporter's address, with this host's origin built in. */
export function renderReporterScript(config: ReporterConfig): string {
  return `/* pipeline-tool dev: tells the host page what goes wrong in the tool. */\n(${runReporter.toString()})(${JSON.stringify(config)});\n`;
}
