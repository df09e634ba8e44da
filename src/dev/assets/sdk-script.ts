/*
 * The SDK the dev server puts into every page of the tool: `window.pipeline`, running inside the
 * sandboxed frame. It only talks to its parent, the host page, by postMessage:
 *   frame → host  {type: 'pipeline:hello'}                       once, as the script runs
 *   host  → frame {type: 'pipeline:ready', version}              the host is listening
 *   frame → host  {type: 'pipeline:call', id, method, args}      one per call
 *   host  → frame {type: 'pipeline:result', id, ok, value | error}
 * Calls made before `ready` wait in a queue, so a tool never has to poll for the bridge.
 */

export interface SdkConfig {
  version: string;
  /** `namespace.method` names this SDK version has; later ones are absent, as on an older host. */
  methods: readonly string[];
  /** Where the host page lives; messages go there and are accepted only from there. */
  hostOrigin: string;
}

/** The browser code, kept as a plain function so the compiler checks its syntax. */
function runSdk(config: SdkConfig): void {
  const parentWindow = window.parent;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string }>();
  const waiting: { id: number; method: string; args: unknown[] }[] = [];
  let ready = false;
  let nextId = 1;

  const makeError = (method: string, error: { code?: unknown; message?: unknown; details?: unknown } | undefined): Error => {
    const message = typeof error?.message === 'string' ? error.message : `${method} failed`;
    const failure = new Error(message) as Error & { code: string; method: string; details: unknown[] };
    failure.name = 'BridgeError';
    failure.code = typeof error?.code === 'string' ? error.code : 'INTERNAL_ERROR';
    failure.method = method;
    failure.details = Array.isArray(error?.details) ? error.details : [];
    return failure;
  };

  const post = (call: { id: number; method: string; args: unknown[] }) => {
    try {
      parentWindow.postMessage({ type: 'pipeline:call', id: call.id, method: call.method, args: call.args }, config.hostOrigin);
    } catch (error) {
      // Functions, DOM nodes and the like cannot cross to the host; the real bridge fails on them too.
      const entry = pending.get(call.id);
      pending.delete(call.id);
      entry?.reject(
        makeError(call.method, {
          code: 'INVALID_ARGUMENT',
          message: `${call.method}: the arguments cannot be sent to the host (${error instanceof Error ? error.message : String(error)}). Send plain data: objects, arrays, strings, numbers, booleans and null.`,
        }),
      );
    }
  };

  const call = (method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, method });
      if (ready) post({ id, method, args });
      else waiting.push({ id, method, args });
    });

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parentWindow || event.origin !== config.hostOrigin) return;
    const data = event.data as { type?: unknown; id?: unknown; ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
    if (typeof data !== 'object' || data === null) return;
    if (data.type === 'pipeline:ready') {
      ready = true;
      for (const queued of waiting.splice(0)) post(queued);
    } else if (data.type === 'pipeline:result' && typeof data.id === 'number') {
      const entry = pending.get(data.id);
      if (entry === undefined) return;
      pending.delete(data.id);
      if (data.ok === true) entry.resolve(data.value);
      else entry.reject(makeError(entry.method, data.error));
    }
  });

  const sdk: Record<string, unknown> = { version: config.version };
  for (const method of config.methods) {
    const [space, member] = method.split('.') as [string, string];
    const namespace = (sdk[space] ??= {}) as Record<string, unknown>;
    namespace[member] = (...args: unknown[]) => call(method, args);
  }
  Object.defineProperty(window, 'pipeline', { value: sdk, enumerable: true, configurable: true, writable: true });

  if (parentWindow === window) {
    // eslint-disable-next-line no-console -- runs in the tool's page, where the console is the author's
    console.warn('[pipeline-tool dev] This page is not inside the host page, so window.pipeline calls will wait forever. Open the URL that pipeline-tool dev printed.');
  } else {
    parentWindow.postMessage({ type: 'pipeline:hello' }, config.hostOrigin);
  }
}

/** The script served at the SDK's address, with this host's configuration built in. */
export function renderSdkScript(config: SdkConfig): string {
  return `/* window.pipeline for pipeline-tool dev (SDK ${config.version}). */\n(${runSdk.toString()})(${JSON.stringify(config)});\n`;
}
