/*
 * The host page's box of what went wrong in the tool since its frame last loaded: the frame
 * reporter's messages (uncaught errors, unhandled rejections, console.error, what the sandbox
 * blocked) and the server's word on missing files, in the order they came. It sits above the
 * tool, in red, and empties when the frame reloads or a hot update is applied in it. Frame reports are passed on to the server for
 * the terminal. Runs in the browser, embedded in the host script through
 * Function.prototype.toString, so it is one self-contained function; everything it shows is
 * untrusted text and goes into the page as textContent only.
 */

export interface ToolReports {
  /** Empties the box: the frame is about to load again. */
  clear(): void;
  /** Adds a problem the server found (a missing file). */
  add(problem: unknown): void;
}

export function installToolReports(currentFrame: () => HTMLIFrameElement | null): ToolReports {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes come from the frame and the server
  const MAX_SHOWN = 200;
  const LABELS: Record<string, string> = {
    error: 'Uncaught error',
    rejection: 'Unhandled rejection',
    console: 'console.error',
    blocked: 'Blocked by the sandbox',
    missing: 'File not found',
    setup: 'Not connected',
  };
  const box = document.getElementById('tool-problems') as HTMLElement;
  const list = document.createElement('ol');
  const title = document.createElement('strong');
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.textContent = 'Dismiss';
  const head = document.createElement('div');
  head.className = 'problems-head';
  head.append(title, dismiss);
  box.append(head, list);
  let count = 0;
  // The browser may ask twice for one file (its preload scanner, then the parser), which is one problem.
  const missingShown = new Set<string>();

  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
  const number = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null);
  /**
   * The tool's own files by their path in the folder; the random base path says nothing to the
   * author. A page of another dev server (dev --url) has its files below its own folder, asked
   * for with a query the bundler adds (`src/App.tsx?t=17…`), which says nothing either.
   */
  const shortFile = (file: string) => {
    const frame = currentFrame();
    if (frame?.dataset['framedUrl'] === 'true') {
      const base = new URL('.', frame.src).href;
      return file.startsWith(base) ? file.slice(base.length).replace(/[?#].*$/s, '') : file;
    }
    return file.replace(/^https?:\/\/[^/]+\/t\/[^/]+\//, '');
  };

  /** "app.js:3:5", from a place's file, line and column. */
  const placeText = (where: Json) => {
    const file = text(where?.file, 500);
    if (file === '') return '';
    const line = number(where.line);
    const column = number(where.column);
    return `${shortFile(file)}${line === null ? '' : `:${line}${column === null ? '' : `:${column}`}`}`;
  };

  /** Shows one problem; returns its item, or undefined when it is not shown (repeated, or too many). */
  const show = (problem: Json): HTMLLIElement | undefined => {
    if (problem.kind === 'missing') {
      const file = text(problem.file, 500);
      if (missingShown.has(file)) return undefined;
      missingShown.add(file);
    }
    count += 1;
    document.body.dataset['toolProblems'] = String(count);
    title.textContent = count === 1 ? '1 problem in the tool' : `${count} problems in the tool`;
    box.hidden = false;
    if (list.children.length >= MAX_SHOWN) return undefined;
    const kind = text(problem.kind, 20);
    const item = document.createElement('li');
    item.dataset['kind'] = kind;
    const label = document.createElement('span');
    label.className = 'problem-kind';
    label.textContent = LABELS[kind] ?? kind;
    item.append(label);
    const where = placeText(problem);
    if (where !== '') {
      const place = document.createElement('code');
      place.className = 'problem-place';
      place.textContent = where;
      item.append(' ', place);
    }
    const message = document.createElement('span');
    message.className = 'problem-message';
    message.textContent = text(problem.message, 2000);
    item.append(' ', message);
    list.append(item);
    return item;
  };

  /**
   * Once the server has placed a frame's report (at the author's source through a source map, or a
   * sandbox error at the tool's use of storage), the item shows that place and the server's words;
   * the place in the built or served code goes in its title. A place the server dropped (the
   * framework's file, which says nothing to the author) goes.
   */
  const placeAtSource = (item: HTMLLIElement, problem: Json) => {
    if (typeof problem !== 'object' || problem === null || !item.isConnected) return;
    const where = placeText(problem);
    let place = item.querySelector('.problem-place');
    if (where === '') place?.remove();
    else if (!(place instanceof HTMLElement)) {
      place = document.createElement('code');
      place.className = 'problem-place';
      item.querySelector('.problem-kind')?.after(' ', place);
    }
    if (place instanceof HTMLElement && where !== '') place.textContent = where;
    const message = item.querySelector('.problem-message');
    if (message instanceof HTMLElement && typeof problem.message === 'string') message.textContent = text(problem.message, 2000);
    for (const key of ['built', 'served']) {
      const at = placeText(problem[key]);
      if (at === '' || !(place instanceof HTMLElement)) continue;
      place.title = `${key}: ${at}`;
      item.dataset[key] = at;
    }
  };

  const clear = () => {
    count = 0;
    missingShown.clear();
    list.replaceChildren();
    box.hidden = true;
    document.body.dataset['toolProblems'] = '0';
  };
  dismiss.addEventListener('click', clear);
  clear();

  window.addEventListener('message', (event: MessageEvent) => {
    const frame = currentFrame();
    if (frame === null || event.source === null || event.source !== frame.contentWindow || event.origin !== 'null') return;
    const data = event.data as Json;
    // A hot update was applied: the code that reported what the box holds has been replaced.
    if (typeof data === 'object' && data !== null && data.type === 'pipeline:updated') {
      clear();
      return;
    }
    if (typeof data !== 'object' || data === null || data.type !== 'pipeline:report' || typeof data.report !== 'object' || data.report === null) return;
    const report = data.report;
    const item = show(report);
    // The terminal hears of it too; the server checks the report again, hides the base path, and
    // says where it is in the author's source when a source map allows.
    void fetch('/__pipeline/report', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: report.kind, message: report.message, file: report.file ?? null, line: report.line ?? null, column: report.column ?? null, version: report.version ?? null }),
    })
      .then(async (response) => {
        if (item !== undefined && response.ok) placeAtSource(item, ((await response.json()) as Json)?.problem);
      })
      .catch(() => {});
  });

  return { clear, add: (problem) => void show(problem) };
}
