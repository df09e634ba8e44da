/*
 * `window.pipeline`, built once for every place a tool runs against the emulated host: the dev
 * server's sandboxed frame (over postMessage) and the testing kit (in process). What differs is
 * only the transport that carries a call to the host and brings its outcome back.
 *
 * createSdk is embedded in the dev server's SDK script through Function.prototype.toString, and
 * the testing kit evaluates it inside a test page the same way, so it must stay self-contained:
 * no imports, no outer variables, plain JavaScript after compilation.
 */

/** One call on its way to the host. `seq` counts calls from 1 in the order the tool made them. */
export interface SdkCall {
  seq: number;
  method: string;
  args: unknown[];
}

/** What the host answered; the error fields are read defensively, as they cross a boundary. */
export type SdkOutcome =
  | { ok: true; value?: unknown }
  | { ok: false; error?: { code?: unknown; message?: unknown; details?: unknown } | null };

export interface SdkTransport {
  /** Carries one call to the host, which applies calls strictly in `seq` order. */
  send(call: SdkCall): void;
  /**
   * Copies a call's arguments, throwing for what cannot cross to the host; structuredClone when
   * left out. A transport that copies in another realm's objects must bring its own.
   */
  clone?(args: unknown[]): unknown[];
}

export interface SdkConfig {
  version: string;
  /** `namespace.method` names this SDK version has. */
  methods: readonly string[];
  /** Every `namespace.method` name of the newest SDK: those missing from `methods` stay absent. */
  known: readonly string[];
}

export interface SdkHandle {
  /** The object to expose as `window.pipeline`. */
  sdk: Record<string, unknown>;
  /** The host listens: calls made so far go out, in order, and later ones go straight through. */
  ready(): void;
  /** Settles call `seq` with the host's answer; unknown or settled calls are ignored. */
  settle(seq: number, outcome: SdkOutcome): void;
  /** How many calls have not settled yet. */
  pending(): number;
}

export function createSdk(config: SdkConfig, transport: SdkTransport): SdkHandle {
  type Failure = { code?: unknown; message?: unknown; details?: unknown } | null | undefined;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; method: string; site: string | undefined }>();
  const waiting: SdkCall[] = [];
  let isReady = false;
  let nextSeq = 1;

  // Where a stack frame runs, without its line and column: `http://…/sdk.js` for a V8 frame
  // `at call (http://…/sdk.js:8:25)` or a Firefox frame `call@http://…/sdk.js:8:25`.
  const frameSource = (line: string): string =>
    line
      .replace(/:\d+:\d+\)?\s*$/, '')
      .replace(/^\s*at\s+(?:[^(]*\()?/, '')
      .replace(/^[^@]*@/, '');
  const ownSource = frameSource((new Error().stack ?? '').split('\n').find((line) => /:\d+:\d+\)?\s*$/.test(line)) ?? '');

  /**
   * The stack of the tool's call, from the frame that called the bridge: a failure arrives later,
   * from the host, and a stack made then would name only this SDK, never the tool's line.
   */
  const callSite = (): string | undefined => {
    const stack = new Error().stack;
    if (typeof stack !== 'string' || ownSource === '') return undefined;
    const frames = stack.split('\n').filter((line) => /:\d+:\d+\)?\s*$/.test(line));
    const first = frames.findIndex((line) => frameSource(line) !== ownSource);
    return first < 0 ? undefined : frames.slice(first).join('\n');
  };

  const makeError = (method: string, error: Failure, site?: string): Error => {
    const message = typeof error?.message === 'string' ? error.message : `${method} failed`;
    const failure = new Error(message) as Error & { code: string; method: string; details: unknown[] };
    failure.name = 'BridgeError';
    failure.code = typeof error?.code === 'string' ? error.code : 'INTERNAL_ERROR';
    failure.method = method;
    failure.details = Array.isArray(error?.details) ? error.details : [];
    if (site !== undefined) failure.stack = `BridgeError: ${message}\n${site}`;
    return failure;
  };

  const settle = (seq: number, outcome: SdkOutcome): void => {
    const entry = pending.get(seq);
    if (entry === undefined) return;
    pending.delete(seq);
    if (outcome !== null && typeof outcome === 'object' && outcome.ok === true) entry.resolve(outcome.value);
    else entry.reject(makeError(entry.method, outcome !== null && typeof outcome === 'object' && outcome.ok === false ? outcome.error : undefined, entry.site));
  };

  const dispatch = (call: SdkCall): void => {
    try {
      transport.send(call);
    } catch (error) {
      settle(call.seq, { ok: false, error: { code: 'INTERNAL_ERROR', message: `${call.method}: the call could not reach the host (${error instanceof Error ? error.message : String(error)})` } });
    }
  };

  const call = (method: string, args: unknown[]): Promise<unknown> => {
    const site = callSite();
    // Arguments cross to the host as a structured clone. What cannot be cloned (functions, DOM
    // nodes) is refused here, before the call takes a place in the sequence, as the real bridge
    // refuses it before sending.
    let copy: unknown[];
    try {
      copy = transport.clone ? transport.clone(args) : typeof structuredClone === 'function' ? structuredClone(args) : args;
    } catch (error) {
      return Promise.reject(
        makeError(
          method,
          {
            code: 'INVALID_ARGUMENT',
            message: `${method}: the arguments cannot be sent to the host (${error instanceof Error ? error.message : String(error)}). Send plain data: objects, arrays, strings, numbers, booleans and null.`,
          },
          site,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const seq = nextSeq++;
      pending.set(seq, { resolve, reject, method, site });
      if (isReady) dispatch({ seq, method, args: copy });
      else waiting.push({ seq, method, args: copy });
    });
  };

  // Names that libraries probe objects for (promises, test matchers, DOM and JSON helpers): they
  // must read as absent, not as bridge methods, or an awaited namespace would call the host.
  const NOT_METHODS = ['then', 'catch', 'finally', 'toJSON', 'asymmetricMatch', 'nodeType', 'nodeName', 'tagName', 'inspect', 'constructor'];
  const METHOD_NAME = /^[a-z][A-Za-z]{0,39}$/;

  // A namespace has fixed members, as on the platform. A call of any other plain name reaches the
  // host all the same, which rejects it with UNKNOWN_METHOD and the nearest name, and logs it.
  const namespace = (space: string): Record<string, unknown> => {
    const members: Record<string, unknown> = {};
    const unknown = new Map<string, unknown>();
    return new Proxy(members, {
      get(target, key, receiver) {
        if (typeof key !== 'string' || Object.prototype.hasOwnProperty.call(target, key) || key in Object.prototype) return Reflect.get(target, key, receiver);
        if (!METHOD_NAME.test(key) || NOT_METHODS.includes(key)) return undefined;
        const name = `${space}.${key}`;
        // A method of a later SDK version is absent, so that tools can test for it.
        if (config.known.includes(name)) return undefined;
        let member = unknown.get(key);
        if (member === undefined) {
          member = (...args: unknown[]) => call(name, args);
          if (unknown.size < 100) unknown.set(key, member);
        }
        return member;
      },
    });
  };

  const sdk: Record<string, unknown> = { version: config.version };
  for (const method of config.methods) {
    const [space, member] = method.split('.') as [string, string];
    const target = (sdk[space] ??= namespace(space)) as Record<string, unknown>;
    target[member] = (...args: unknown[]) => call(method, args);
  }

  return {
    sdk,
    ready() {
      if (isReady) return;
      isReady = true;
      for (const queued of waiting.splice(0)) dispatch(queued);
    },
    settle,
    pending: () => pending.size,
  };
}
