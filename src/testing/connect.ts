import type { encodeWireValue } from '../dev/wire-values.js';
import type { createSdk, SdkConfig } from '../sdk/create-sdk.js';

/*
 * How the SDK of a test reaches its host: text both ways. Under `dev` the tool's calls cross to
 * the host page by structured clone and on to the server as JSON, and the answers come back the
 * same way; here they cross as the same JSON, so NaN and undefined arrive as themselves and
 * everything the tool receives is made in the tool's own realm, as in a browser.
 */

export interface HostPort {
  send(seq: number, text: string): void;
  listen(deliver: (seq: number, text: string) => void): void;
}

/**
 * Builds `window.pipeline` over a port. It runs where the tool runs: in Node for a test without a
 * page, and inside a test page's own realm (embedded through Function.prototype.toString, with
 * createSdk and the wire encoder), so it must stay self-contained.
 */
export function connectSdk(
  config: SdkConfig,
  build: typeof createSdk,
  encode: typeof encodeWireValue,
  port: HostPort,
  check?: (args: unknown[]) => void,
): Record<string, unknown> {
  const handle = build(config, {
    send: (call) => port.send(call.seq, JSON.stringify({ method: call.method, args: encode(call.args) })),
    // The arguments become JSON text as they are sent, which is copy enough; `check` refuses
    // what a browser could not clone, when the realm has no structuredClone of its own.
    ...(check === undefined
      ? {}
      : {
          clone: (args: unknown[]) => {
            check(args);
            return args;
          },
        }),
  });
  port.listen((seq, text) => handle.settle(seq, JSON.parse(text)));
  handle.ready();
  return handle.sdk;
}
