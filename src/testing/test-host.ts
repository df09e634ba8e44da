import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BridgeContextDto, BridgeToolType, PipelineSdk } from '../bridge/types.js';
import { createDevSession, type CallError, type DevSession, type SessionSettingsStore } from '../dev/session.js';
import { readToolInfo, type ToolInfo } from '../dev/tool-manifest.js';
import { decodeWireValue, encodeWireValue } from '../dev/wire-values.js';
import {
  BRIDGE_METHODS,
  CURRENT_SDK_VERSION,
  createMemorySettingsStore,
  isSupportedSdkVersion,
  listSdkMethods,
  loadFixtureFile,
  parseFixtures,
  DEFAULT_FIXTURES,
  type BridgeWarning,
  type CreatedQuote,
  type CustomerPreview,
  type EditorLine,
  type EditorView,
  type FixtureFile,
  type Fixtures,
  type JsonValue,
  type SettingsEntry,
} from '../platform/index.js';
import { createSdk, type SdkConfig } from '../sdk/create-sdk.js';
import { connectSdk, type HostPort } from './connect.js';

/*
 * The emulated host for a test: the session `pipeline-tool dev` runs (the same platform model,
 * SDK version emulation, tool type, role and culture switches), with settings in memory and the
 * call log kept as data instead of drawn in a page.
 */

/** The manifest fields the host reads, when a test gives the manifest as an object. */
export interface ManifestFields {
  name?: unknown;
  type?: unknown;
  entry?: unknown;
  [field: string]: unknown;
}

export interface TestHostOptions {
  /**
   * The tool folder holding manifest.json (or the path of manifest.json itself), or the
   * manifest as an object. It names the tool (its settings are kept under `name`) and gives
   * its type, as under `dev`. Left out, the tool is a standalone tool named "test-tool".
   */
  manifest?: string | ManifestFields;
  /** Overrides the manifest's type, as the host page's switch does. */
  toolType?: BridgeToolType;
  /** Overrides the manifest's name as the key of the tool's settings. */
  toolId?: string;
  /** A fixture file (the format of `dev --fixtures`) or the same content as an object; laid over the built-in data. */
  fixtures?: string | FixtureFile;
  /** The SDK version to act as, 2.1.0 to 2.5.0; 2.5.0 when left out. */
  sdkVersion?: string;
  /** The role token the tool is told about, such as H_Field. */
  userRole?: string;
  /** The culture the tool is told about, such as en-AU. */
  cultureCode?: string;
  /** Settings this tool has stored already, by key; fixture settings still act as defaults. */
  settings?: Record<string, JsonValue>;
}

/** One bridge call the tool made, in the order it was made. */
export interface CallRecord {
  /** `namespace.method`, such as `quotes.addLines`. */
  method: string;
  /** The arguments as the host received them. */
  args: unknown[];
  status: 'pending' | 'resolved' | 'rejected';
  /** What the call resolved with, once resolved. */
  value?: unknown;
  /** Why it was rejected: the `code`, `message` and `details` the tool's BridgeError carries. */
  error?: CallError;
  /** What the emulator noticed about this call. */
  warnings: BridgeWarning[];
}

export interface TestHost {
  /** A `window.pipeline` for code that runs in the test itself. */
  readonly pipeline: PipelineSdk;
  /** The tool as the host sees it. */
  readonly tool: { readonly toolId: string; readonly toolType: BridgeToolType; readonly entry: string };
  /** What the host had to assume about the manifest (missing, no valid type, no usable entry). */
  readonly notices: readonly string[];
  /** Every call so far, oldest first. */
  readonly calls: readonly CallRecord[];
  /** Every warning so far, oldest first. */
  readonly warnings: readonly BridgeWarning[];
  /** Defines `pipeline` on `target` (the global object and its `window` when left out); returns it. */
  install(target?: object): PipelineSdk;
  /** Resolves once no call is pending and the tool's reactions to the answers have run. */
  settled(): Promise<void>;
  /** The open quote as the operator's editor shows it. */
  editorView(): EditorView;
  /** Every line of the open quote, in the editor's order. */
  lines(): EditorLine[];
  /** The open quote as the customer's printed quote shows it. */
  customerPreview(): CustomerPreview;
  /** Quotes made by quotes.create, oldest first. */
  createdQuotes(): CreatedQuote[];
  /** This tool's stored settings, by key. */
  settings(): Record<string, JsonValue>;
  /** The context the tool is told about. */
  context(): BridgeContextDto;
  /** Back to the start: the open quote, the settings and the log as they were when created. */
  reset(): Promise<void>;
  /** Removes what install() defined. */
  close(): void;
  /** A port for another SDK of this host (a test page's); used by loadTool. */
  connect(): { port: HostPort; config: SdkConfig };
}

/** Rounds of answers settled() waits through before it gives up on a tool that never stops calling. */
const MAX_SETTLE_ROUNDS = 1000;
const realSetImmediate = globalThis.setImmediate;
/** Runs `task` in the next turn of the event loop, with the timer function Node started with, so fake timers cannot stall it. */
const later = (task: () => void): void => {
  if (realSetImmediate) realSetImmediate(task);
  else setTimeout(task, 0);
};
const nextTurn = () => new Promise<void>((resolve) => later(resolve));

/** A manifest given as an object, or none, has no file that could be broken or point nowhere. */
const NOTHING_WRONG = { manifestProblem: null, lastGood: false, entryMissing: null, alerts: [] } as const satisfies Partial<ToolInfo>;

async function readTool(options: TestHostOptions): Promise<ToolInfo> {
  const given = options.manifest;
  let tool: ToolInfo;
  if (typeof given === 'string') {
    const info = await stat(given).catch(() => undefined);
    if (info === undefined) throw new Error(`createTestHost: ${given} does not exist; give the tool folder or its manifest.json`);
    tool = await readToolInfo(info.isDirectory() ? given : path.dirname(given));
  } else if (given !== undefined && given !== null) {
    const name = typeof given.name === 'string' ? given.name.trim() : '';
    const type = given.type === 'standalone' || given.type === 'quoting_extension' ? given.type : null;
    tool = {
      toolId: name || 'test-tool',
      manifestType: type,
      entry: typeof given.entry === 'string' && given.entry !== '' ? given.entry : 'index.html',
      notes: type === null ? ['the manifest has no valid type: acting as standalone, as the platform would.'] : [],
      ...NOTHING_WRONG,
    };
  } else {
    tool = { toolId: 'test-tool', manifestType: null, entry: 'index.html', notes: [], ...NOTHING_WRONG };
  }
  return options.toolId === undefined ? tool : { ...tool, toolId: options.toolId };
}

async function readFixtures(given: TestHostOptions['fixtures']): Promise<Fixtures> {
  if (given === undefined) return DEFAULT_FIXTURES;
  if (typeof given === 'string') return loadFixtureFile(given);
  return parseFixtures(JSON.stringify(given), 'the fixtures option');
}

function memorySettings(initial: SettingsEntry[]): SessionSettingsStore {
  let store = createMemorySettingsStore(initial);
  return {
    file: '(in memory)',
    read: (scope, key) => store.read(scope, key),
    write: (scope, key, value) => store.write(scope, key, value),
    entries: () => store.entries(),
    clear: async (scope) => {
      store = createMemorySettingsStore(store.entries().filter((entry) => entry.tenantId !== scope.tenantId || entry.toolId !== scope.toolId));
    },
  };
}

/** A fresh emulated host. Use one per test, or reset() it between tests. */
export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const sdkVersion = options.sdkVersion ?? CURRENT_SDK_VERSION;
  if (typeof sdkVersion !== 'string' || !isSupportedSdkVersion(sdkVersion)) {
    throw new RangeError(`createTestHost: sdkVersion must be a version from 2.1.0 to ${CURRENT_SDK_VERSION}, got ${JSON.stringify(sdkVersion)}`);
  }
  const tool = await readTool(options);
  const fixtures = await readFixtures(options.fixtures);
  const scope = { tenantId: fixtures.context.tenantId, toolId: tool.toolId };
  const initialSettings = Object.entries(options.settings ?? {}).map(([key, value]) => ({ ...scope, key, value }));

  let calls: CallRecord[] = [];
  let warnings: BridgeWarning[] = [];
  const inFlight = new Set<Promise<void>>();
  let session: DevSession;

  const startSession = async () => {
    const next = createDevSession({ tool, fixtures, fixturesFile: null, sdkVersion, settings: memorySettings(initialSettings) });
    const chosen = await next.control({ action: 'choose', toolType: options.toolType, userRole: options.userRole, cultureCode: options.cultureCode });
    if (!chosen.ok) throw new TypeError(`createTestHost: ${chosen.message}`);
    session = next;
  };
  await startSession();

  const config: SdkConfig = { version: sdkVersion, methods: listSdkMethods(sdkVersion), known: Object.keys(BRIDGE_METHODS) };

  const openPort = (): HostPort => {
    let deliver: ((seq: number, text: string) => void) | undefined;
    return {
      send(seq, text) {
        let method = '';
        let args: unknown[] = [];
        try {
          const body = JSON.parse(text) as { method: unknown; args: unknown };
          method = String(body.method);
          args = decodeWireValue(body.args) as unknown[];
        } catch {
          method ||= 'unreadable call';
        }
        const record: CallRecord = { method, args, status: 'pending', warnings: [] };
        calls.push(record);
        // Measured as dev measures the same call on its way to the server.
        const done = session.call(method, args, undefined, Buffer.byteLength(text)).then((outcome) => {
          record.status = outcome.ok ? 'resolved' : 'rejected';
          if (outcome.ok) record.value = outcome.value;
          else record.error = outcome.error;
          record.warnings = outcome.warnings;
          warnings.push(...outcome.warnings);
          const answer = JSON.stringify(outcome.ok ? { ok: true, value: outcome.value } : { ok: false, error: outcome.error });
          // An answer arrives in a later turn, as a message does under dev: a tool that calls
          // again from every answer cannot starve the event loop.
          return new Promise<void>((resolve) =>
            later(() => {
              deliver?.(seq, answer);
              resolve();
            }),
          );
        });
        inFlight.add(done);
        void done.finally(() => inFlight.delete(done));
      },
      listen(next) {
        deliver = next;
      },
    };
  };

  let pipeline: PipelineSdk | undefined;
  const installed: object[] = [];
  const snapshot = () => session.snapshot();

  const host: TestHost = {
    get pipeline() {
      return (pipeline ??= connectSdk(config, createSdk, encodeWireValue, openPort()) as unknown as PipelineSdk);
    },
    get tool() {
      const state = snapshot().tool;
      return { toolId: state.toolId, toolType: state.toolType, entry: state.entry };
    },
    notices: tool.notes,
    get calls() {
      return calls;
    },
    get warnings() {
      return warnings;
    },
    install(target) {
      const global = globalThis as { window?: object };
      const targets = target !== undefined ? [target] : global.window !== undefined && global.window !== globalThis ? [globalThis, global.window] : [globalThis];
      for (const each of targets) {
        Object.defineProperty(each, 'pipeline', { value: host.pipeline, enumerable: true, configurable: true, writable: true });
        installed.push(each);
      }
      return host.pipeline;
    },
    async settled() {
      // Each answer may lead the tool to make more calls; wait until a turn passes with none.
      // A tool that calls again at once after every answer never gets there: say so, rather
      // than leave the test to time out.
      const before = calls.length;
      for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
        if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        await nextTurn();
        if (inFlight.size === 0) return;
      }
      throw new Error(`settled(): the tool was still calling the bridge after ${calls.length - before} calls in ${MAX_SETTLE_ROUNDS} rounds; does it poll without a pause?`);
    },
    editorView: () => snapshot().editor,
    lines: () => snapshot().editor.blocks.flatMap((block) => block.lines),
    customerPreview: () => snapshot().preview,
    createdQuotes: () => snapshot().createdQuotes,
    settings: () => Object.fromEntries(snapshot().settings.entries.map((entry) => [entry.key, entry.value])),
    context: () => snapshot().context,
    async reset() {
      await host.settled();
      await startSession();
      calls = [];
      warnings = [];
    },
    close() {
      for (const target of installed.splice(0)) {
        if ((target as { pipeline?: unknown }).pipeline === pipeline) delete (target as { pipeline?: unknown }).pipeline;
      }
    },
    connect: () => ({ port: openPort(), config }),
  };
  return host;
}
