import { BRIDGE_METHODS } from '../../platform/index.js';
import { createSdk, type SdkConfig, type SdkOutcome } from '../../sdk/create-sdk.js';

/*
 * The SDK the dev server puts into every page of the tool: `window.pipeline` (built by createSdk,
 * the one implementation the testing kit shares), running inside the sandboxed frame. It talks
 * only to its parent, the host page, by postMessage:
 *   frame → host  {type: 'pipeline:hello'}                                once, as the script runs
 *   host  → frame {type: 'pipeline:ready', version}                       the host is listening
 *   frame → host  {type: 'pipeline:call', channel, id, method, args}      one per call
 *   host  → frame {type: 'pipeline:result', id, ok, value | error}
 * `id` counts the calls of this page from 1 in the order they were made, and `channel` names
 * this page load, so the server can apply calls in that order however the requests arrive.
 */

export interface DevSdkConfig {
  version: string;
  /** `namespace.method` names this SDK version has; later ones are absent, as on an older host. */
  methods: readonly string[];
  /** Where the host page lives; messages go there and are accepted only from there. */
  hostOrigin: string;
}

/** The browser code, kept as a plain function so the compiler checks its syntax. */
function runSdk(config: SdkConfig & { hostOrigin: string }, build: typeof createSdk): void {
  const parentWindow = window.parent;
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const channel = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const handle = build(config, {
    send(call) {
      parentWindow.postMessage({ type: 'pipeline:call', channel, id: call.seq, method: call.method, args: call.args }, config.hostOrigin);
    },
  });

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parentWindow || event.origin !== config.hostOrigin) return;
    const data = event.data as { type?: unknown; id?: unknown } & SdkOutcome;
    if (typeof data !== 'object' || data === null) return;
    if (data.type === 'pipeline:ready') handle.ready();
    else if (data.type === 'pipeline:result' && typeof data.id === 'number') handle.settle(data.id, data);
  });

  Object.defineProperty(window, 'pipeline', { value: handle.sdk, enumerable: true, configurable: true, writable: true });

  if (parentWindow === window) {
    // eslint-disable-next-line no-console -- runs in the tool's page, where the console is the author's
    console.warn('[pipeline-tool dev] This page is not inside the host page, so window.pipeline calls will wait forever. Open the URL that pipeline-tool dev printed.');
  } else {
    parentWindow.postMessage({ type: 'pipeline:hello' }, config.hostOrigin);
  }
}

/** The script served at the SDK's address, with this host's configuration built in. */
export function renderSdkScript(config: DevSdkConfig): string {
  const full: SdkConfig & { hostOrigin: string } = { ...config, known: Object.keys(BRIDGE_METHODS) };
  return `/* window.pipeline for pipeline-tool dev (SDK ${config.version}). */\n(${runSdk.toString()})(${JSON.stringify(full)}, ${createSdk.toString()});\n`;
}
