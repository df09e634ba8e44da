import { MAX_CALL_BYTES } from '../session.js';
import { encodeWireValue } from '../wire-values.js';
import { drawPanels } from './host-panels.js';
import { installToolReports, type ToolReports } from './host-reports.js';

/*
 * The host page's code. It puts the tool in a sandboxed frame, answers the SDK's messages by
 * asking the server, and draws the quote, the call log and the findings. Everything it shows
 * comes from the tool or the author's files, so it only ever sets textContent, never HTML.
 */

/** The browser code, kept as a plain function so the compiler checks it; its helpers come as arguments. */
function runHost(
  encode: (value: unknown) => unknown,
  draw: (state: unknown, show: (value: unknown) => string) => void,
  installReports: (currentFrame: () => HTMLIFrameElement | null) => ToolReports,
  maxCallBytes: number,
): void {
  type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes come from the server's DevState
  const MAX_LOG = 300;
  const MAX_SHOWN = 4000;
  let state: Json = null;
  let frame: HTMLIFrameElement | null = null;
  let frameLoads = 0;
  let callsSeen = 0;

  const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const make = (tag: string, text?: string | null, className?: string): HTMLElement => {
    const element = document.createElement(tag);
    if (text !== undefined && text !== null) element.textContent = text;
    if (className) element.className = className;
    return element;
  };
  /** JSON for people: shows undefined and NaN, which JSON.stringify would hide. */
  const show = (value: unknown): string => {
    if (value === undefined) return 'undefined';
    let text: string;
    try {
      text = JSON.stringify(
        value,
        (_key, item: unknown) => (item === undefined ? '‹undefined›' : typeof item === 'number' && !Number.isFinite(item) ? `‹${item}›` : item),
        2,
      );
    } catch {
      text = String(value);
    }
    return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (${text.length - MAX_SHOWN} more characters)` : text;
  };

  // ------------------------------------------------------------------------------------------
  // Talking to the server
  // ------------------------------------------------------------------------------------------

  /** POSTs `body` as JSON (a string is taken as JSON already) and gives the answer's JSON. */
  const postJson = async (path: string, body: unknown): Promise<Json> => {
    const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    let data: Json;
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text };
    }
    if (!response.ok) throw new Error(typeof data?.error === 'string' ? data.error : `HTTP ${response.status}`);
    return data;
  };

  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  const refreshState = async (): Promise<void> => {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        try {
          const response = await fetch('/__pipeline/state');
          if (response.ok) {
            state = await response.json();
            render();
          }
        } catch {
          showConnection(false);
        }
      } while (refreshAgain);
    })();
    try {
      await refreshing;
    } finally {
      refreshing = null;
    }
  };

  // ------------------------------------------------------------------------------------------
  // The tool's frame and its messages
  // ------------------------------------------------------------------------------------------

  // The tool origin this page was served for: its security policy allows framing only that one.
  // A restarted server picks a new port, and then only a fresh page can frame the tool.
  let framableOrigin: unknown;
  // The base path the current frame was loaded from.
  let framedBase: unknown;
  // A page of another dev server (dev --url) that has not said hello since it loaded.
  let helloTimer: ReturnType<typeof setTimeout> | undefined;
  const createFrame = () => {
    if (!state) return;
    const origin = state.frameUrl === null ? String(state.toolPort) : new URL(state.frameUrl).origin;
    framableOrigin ??= origin;
    framedBase = state.toolBasePath;
    if (origin !== framableOrigin) {
      location.reload();
      return;
    }
    const holder = byId('frame-holder');
    holder.replaceChildren();
    // What the previous page of the tool reported belongs to it; the new one starts clean.
    reports.clear();
    const entry = String(state.tool.entry).split('/').map(encodeURIComponent).join('/');
    const next = document.createElement('iframe');
    // allow-scripts alone: an opaque origin, no dialogs, no dependable storage (platform-spec §4.3).
    next.setAttribute('sandbox', 'allow-scripts');
    next.id = 'tool-frame';
    next.title = String(state.tool.toolId);
    // The tool origin serves the folder only under the random base path the server made at start;
    // a page of another dev server is framed at its own address.
    next.src =
      state.frameUrl ?? `${location.protocol}//${location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname}:${state.toolPort}${state.toolBasePath}${entry}`;
    if (state.frameUrl !== null) {
      // Such a page must load the SDK itself: when it has not said hello a while after loading,
      // say what to add, with this page's own address (the SDK answers only the page it names).
      clearTimeout(helloTimer);
      next.dataset['framedUrl'] = 'true';
      const handshakes = document.body.dataset['handshakes'];
      next.addEventListener('load', () => {
        helloTimer = setTimeout(() => {
          if (frame !== next || document.body.dataset['handshakes'] !== handshakes) return;
          reports.add({
            kind: 'setup',
            message: `The page at ${String(state.frameUrl)} has not loaded window.pipeline. Add <script src="${location.origin}/__pipeline/sdk.js"></script> to its <head>, before its own scripts, and open the host page at ${location.origin}/.`,
            file: null,
          });
        }, 3000);
      });
    }
    frame = next;
    frameLoads += 1;
    document.body.dataset['frameLoads'] = String(frameLoads);
    holder.append(next);
  };

  const reports = installReports(() => frame);

  const reply = (target: MessageEventSource, message: unknown) => {
    // The frame's origin is opaque ("null"), which postMessage cannot name; the target window
    // itself was checked, so '*' reaches only that frame.
    (target as Window).postMessage(message, '*');
  };

  window.addEventListener('message', (event: MessageEvent) => {
    if (frame === null || event.source !== frame.contentWindow || event.source === null) return;
    // The sandbox makes the frame's origin opaque; anything else means it is not our sandbox.
    if (event.origin !== 'null') return;
    const source = event.source;
    const data = event.data as Json;
    if (typeof data !== 'object' || data === null) return;
    if (data.type === 'pipeline:hello') {
      reply(source, { type: 'pipeline:ready', version: state?.choices?.sdkVersion });
      document.body.dataset['handshakes'] = String(Number(document.body.dataset['handshakes'] ?? 0) + 1);
      return;
    }
    if (data.type !== 'pipeline:call' || typeof data.id !== 'number' || !Number.isSafeInteger(data.id)) return;
    void handleCall(source, data.id, data.channel, data.method, data.args);
  });

  // Every call goes to the server at once, numbered: `id` is its place among the calls of the
  // page load `channel`, and the server applies them in that order whichever request lands first.
  // A malformed call is sent too, so that the server frees its place when it refuses it.
  const handleCall = async (source: MessageEventSource, id: number, channel: unknown, method: unknown, args: unknown) => {
    const name = typeof method === 'string' ? method.slice(0, 100) : String(method);
    const list = Array.isArray(args) ? args : [];
    const entry = addLogEntry(name, list);
    const started = performance.now();
    const order = typeof channel === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(channel) ? `?channel=${channel}&seq=${id}` : '';
    let outcome: Json;
    let answered = () => {};
    try {
      // A call larger than the server takes is not sent: the server is told its size, and
      // answers with the same CALL_TOO_LARGE the testing kit gives, in its turn.
      const text = JSON.stringify({ method: name, args: Array.isArray(args) ? encode(list) : null });
      answered = markRepeat(entry, typeof channel === 'string' ? channel : '', text);
      const bytes = new Blob([text]).size;
      outcome = await postJson(`/__pipeline/call${order}`, bytes > maxCallBytes ? { method: name, args: null, tooLarge: bytes } : text);
    } catch (error) {
      outcome = { ok: false, error: { name: 'BridgeError', code: 'INTERNAL_ERROR', method: name, message: `The dev server did not answer: ${error instanceof Error ? error.message : String(error)}`, details: [] }, warnings: [] };
    }
    answered();
    const ms = performance.now() - started;
    reply(source, outcome.ok ? { type: 'pipeline:result', id, ok: true, value: outcome.value } : { type: 'pipeline:result', id, ok: false, error: outcome.error });
    finishLogEntry(entry, outcome, ms);
    void refreshState();
  };

  // ------------------------------------------------------------------------------------------
  // The call log
  // ------------------------------------------------------------------------------------------

  const addLogEntry = (method: string, args: unknown[]): HTMLElement => {
    const log = byId('call-log');
    const item = make('li', null, 'call pending');
    item.dataset['method'] = method;
    item.dataset['status'] = 'pending';
    const head = make('div', null, 'call-head');
    head.append(make('span', new Date().toLocaleTimeString(), 'call-time'), make('code', method, 'call-method'), make('span', '…', 'call-status'), make('span', '', 'call-ms'));
    const argsBlock = make('details', null, 'call-args');
    argsBlock.append(make('summary', `arguments (${args.length})`), make('pre', show(args)));
    item.append(head, argsBlock);
    log.prepend(item);
    while (log.children.length > MAX_LOG) log.lastElementChild?.remove();
    callsSeen += 1;
    byId('call-count').textContent = String(callsSeen);
    return item;
  };

  // A call made again with the same arguments while the first is still waiting for its answer is
  // most often React's StrictMode, which runs every effect twice while developing: the start-up
  // calls show twice, and a quotes.addLines in an effect adds its lines twice. The entry says so,
  // since nothing else tells the author why. Returns what to call once the call is answered.
  const waiting = new Map<string, number>();
  const markRepeat = (item: HTMLElement, channel: string, call: string): (() => void) => {
    if (call.length > 65_536) return () => {};
    const key = `${channel}\u0000${call}`;
    const before = waiting.get(key) ?? 0;
    waiting.set(key, before + 1);
    if (before > 0) {
      item.classList.add('repeat');
      item.dataset['repeat'] = 'true';
      item.append(
        make(
          'p',
          "Repeated: the same call with the same arguments was still waiting for its answer. React's StrictMode runs each effect twice while developing, so a call " +
            'made from an effect is made twice here but once in the built tool. Make a call that changes data (quotes.addLines, quotes.create, settings.set) from an event handler, not an effect.',
          'call-repeat',
        ),
      );
    }
    return () => {
      const left = (waiting.get(key) ?? 1) - 1;
      if (left > 0) waiting.set(key, left);
      else waiting.delete(key);
    };
  };

  const finishLogEntry = (item: HTMLElement, outcome: Json, ms: number) => {
    item.classList.remove('pending');
    item.classList.add(outcome.ok ? 'ok' : 'failed');
    item.dataset['status'] = outcome.ok ? 'ok' : 'error';
    (item.querySelector('.call-ms') as HTMLElement).textContent = `${ms.toFixed(1)} ms`;
    const status = item.querySelector('.call-status') as HTMLElement;
    const warningCount = Array.isArray(outcome.warnings) ? outcome.warnings.length : 0;
    item.dataset['warnings'] = String(warningCount);
    const counted = warningCount === 0 ? '' : warningCount === 1 ? ' with 1 warning' : ` with ${warningCount} warnings`;
    if (outcome.ok) {
      status.textContent = `resolved${counted}`;
      const block = make('details', null, 'call-result');
      block.append(make('summary', 'result'), make('pre', show(outcome.value)));
      item.append(block);
    } else {
      const error = outcome.error ?? {};
      status.textContent = `rejected: ${String(error.code)}${counted}`;
      item.dataset['code'] = String(error.code);
      const block = make('div', null, 'call-error');
      block.append(make('p', String(error.message ?? '')));
      if (Array.isArray(error.details) && error.details.length > 0) {
        const problems = make('ul');
        for (const problem of error.details) problems.append(make('li', `${problem.path}: ${problem.message} [${problem.code}]`));
        block.append(problems);
      }
      item.append(block);
    }
    // Worded as the error's problems are: where, what, and the code.
    for (const warning of outcome.warnings ?? []) {
      const line = make('p', `warning ${warning.path ? `${warning.path}: ` : ''}${warning.message} [${warning.code}]`, 'call-warning');
      line.dataset['code'] = String(warning.code);
      line.dataset['path'] = String(warning.path ?? '');
      item.append(line);
    }
  };

  const renderNotices = () => {
    const holder = byId('notices');
    holder.replaceChildren();
    const messages: { level: string; text: string }[] = (state.notices as string[]).map((text) => ({ level: 'warning', text }));
    if (state.fixtures.error) messages.unshift({ level: 'error', text: `Fixture file not used: ${state.fixtures.error}` });
    for (const text of (state.alerts ?? []) as string[]) messages.unshift({ level: 'error', text });
    for (const message of messages) holder.append(make('p', message.text, `notice ${message.level}`));
  };

  const renderControls = () => {
    const choices = state.choices;
    const type = byId<HTMLSelectElement>('tool-type');
    (type.options[0] as HTMLOptionElement).textContent = `from manifest (${state.tool.manifestType ?? 'standalone'})`;
    type.value = choices.toolType ?? '';
    const sdk = byId<HTMLSelectElement>('sdk-version');
    if (sdk.options.length === 0) for (const version of state.sdkVersions) sdk.append(new Option(version, version));
    if (!Array.from(sdk.options).some((option) => option.value === choices.sdkVersion)) sdk.append(new Option(choices.sdkVersion, choices.sdkVersion));
    sdk.value = choices.sdkVersion;
    const roles = byId('role-suggestions');
    if (roles.children.length === 0) for (const role of state.roleSuggestions) roles.append(new Option(role, role));
    const role = byId<HTMLInputElement>('user-role');
    if (document.activeElement !== role) role.value = state.context.userRole;
    const culture = byId<HTMLInputElement>('culture-code');
    if (document.activeElement !== culture) culture.value = state.context.cultureCode;
    byId('tool-name').textContent = `${state.tool.toolId} · ${state.tool.toolType} · SDK ${choices.sdkVersion}`;
  };

  const render = () => {
    if (!state) return;
    showConnection(true);
    renderControls();
    renderNotices();
    draw(state, show);
    document.body.dataset['ready'] = 'true';
  };

  const showConnection = (connected: boolean) => {
    byId('connection').textContent = connected ? '' : 'The dev server is not reachable; retrying…';
  };

  // ------------------------------------------------------------------------------------------
  // Controls and server events
  // ------------------------------------------------------------------------------------------

  const control = async (body: Record<string, unknown>) => {
    try {
      // The server answers with events: `state` for every page, `reload` when the tool must restart.
      await postJson('/__pipeline/control', body);
      byId('control-error').textContent = '';
    } catch (error) {
      byId('control-error').textContent = error instanceof Error ? error.message : String(error);
    }
  };
  const fieldValue = (id: string, fallback: string) => {
    const value = byId<HTMLInputElement>(id).value.trim();
    return value === '' || value === fallback ? null : value;
  };

  byId('apply-choices').addEventListener('click', () => {
    const type = byId<HTMLSelectElement>('tool-type').value;
    void control({
      action: 'choose',
      toolType: type === '' ? null : type,
      userRole: fieldValue('user-role', ''),
      cultureCode: fieldValue('culture-code', ''),
      sdkVersion: byId<HTMLSelectElement>('sdk-version').value,
    });
  });
  byId('reload-tool').addEventListener('click', () => void control({ action: 'reload' }));
  byId('reset-quote').addEventListener('click', () => void control({ action: 'reset-quote' }));
  byId('reset-settings').addEventListener('click', () => void control({ action: 'reset-settings' }));
  byId('clear-log').addEventListener('click', () => byId('call-log').replaceChildren());

  let opened = false;
  const events = new EventSource('/__pipeline/events');
  events.addEventListener('open', () => {
    if (opened) {
      // The server restarted: the tool starts over from the new state (createFrame reloads the
      // whole page when the tool origin's port changed). A restarted server has a new base path;
      // until the state shows it, it is asked again for a few seconds.
      void (async () => {
        for (let attempt = 0; attempt < 20; attempt++) {
          await refreshState();
          if (state?.toolBasePath !== framedBase) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        createFrame();
      })();
    }
    opened = true;
  });
  events.addEventListener('error', () => showConnection(false));
  events.addEventListener('reload', () => void refreshState().then(createFrame));
  events.addEventListener('state', () => void refreshState());
  events.addEventListener('tool-problem', (event) => {
    try {
      reports.add(JSON.parse((event as MessageEvent).data as string).problem);
    } catch {
      // A malformed event is not worth breaking the page for.
    }
  });
  events.addEventListener('notice', (event) => {
    try {
      const notice = JSON.parse((event as MessageEvent).data as string);
      const line = make('p', String(notice.message), `notice ${String(notice.level)}`);
      byId('events').prepend(line);
      while (byId('events').children.length > 20) byId('events').lastElementChild?.remove();
    } catch {
      // A malformed event is not worth breaking the page for.
    }
  });

  void refreshState().then(createFrame);
}

/** The script served at /__pipeline/host.js. */
export function renderHostScript(): string {
  return `/* pipeline-tool dev: the host page. */\n(${runHost.toString()})(${encodeWireValue.toString()}, ${drawPanels.toString()}, ${installToolReports.toString()}, ${MAX_CALL_BYTES});\n`;
}
