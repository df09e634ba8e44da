import type { BridgeContextDto, BridgeToolType } from '../bridge/types.js';
import { groupDigits } from '../core/format-bytes.js';
import {
  BridgeModelError,
  createPlatform,
  isSupportedSdkVersion,
  resolveApiKeys,
  type ApiKey,
  type BridgeWarning,
  type CreatedQuote,
  type CustomerPreview,
  type EditorView,
  type Fixtures,
  type Platform,
  type SettingsEntry,
} from '../platform/index.js';
import { createCallSequencer, type CallOrder } from './call-order.js';
import { withServedFindings, type Findings, type ServedFindings } from './findings.js';
import type { SettingsFileStore } from './settings-file.js';
import { manifestCause, type ToolInfo } from './tool-manifest.js';

/** Where the session keeps settings: the dev server's file, or memory in the testing kit. */
export type SessionSettingsStore = Pick<SettingsFileStore, 'file' | 'read' | 'write' | 'entries' | 'clear'>;

/*
 * The emulated host as the dev server runs it: the platform model, plus what the author can
 * switch in the host page (tool type, role, culture, SDK version) and what the page shows. It
 * knows nothing of HTTP; the endpoints translate to and from it.
 */

/** The SDK versions the host page offers; any 2.x.y from 2.1.0 to 2.5.0 works through the API. */
export const SDK_VERSION_CHOICES = ['2.1.0', '2.2.0', '2.3.0', '2.4.0', '2.5.0'];
/** Role tokens the host page suggests. The spec names H_Admin and H_Field; the others follow its pattern. */
export const ROLE_SUGGESTIONS = ['H_SuperUser', 'H_Admin', 'H_Office', 'H_Field'];

/**
 * The most one bridge call may carry, as the JSON that crosses to the host (`{"method", "args"}`,
 * UTF-8): generous for a quote of thousands of lines, small enough that no page can exhaust the
 * server's memory. Over it, dev and the testing kit alike answer CALL_TOO_LARGE.
 */
export const MAX_CALL_BYTES = 5_000_000;

/** A role token, as the role switch, createTestHost and the fixture schema's context.userRole take it. */
export const ROLE_TOKEN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const CULTURE_CODE = /^[a-z]{2}-[A-Z]{2}$/;
const TOOL_TYPES: readonly BridgeToolType[] = ['standalone', 'quoting_extension'];

export interface CallError {
  name: string;
  code: string;
  method: string;
  message: string;
  details: unknown[];
}

export type CallOutcome =
  | { ok: true; value: unknown; warnings: BridgeWarning[]; ms: number }
  | { ok: false; error: CallError; warnings: BridgeWarning[]; ms: number };

/** What the author has switched away from the manifest and the fixtures; null means "as given". */
export interface HostChoices {
  toolType: BridgeToolType | null;
  userRole: string | null;
  cultureCode: string | null;
  sdkVersion: string;
}

/** Everything the host page shows, as plain JSON. */
export interface DevState {
  tool: ToolInfo & { toolType: BridgeToolType };
  choices: HostChoices;
  sdkVersions: string[];
  roleSuggestions: string[];
  context: BridgeContextDto;
  methods: string[];
  editor: EditorView;
  preview: CustomerPreview;
  createdQuotes: CreatedQuote[];
  findings: Findings | null;
  /** `reloading` is true while a changed fixture file is being loaded; the previous data serves meanwhile. */
  fixtures: { file: string | null; error: string | null; reloading: boolean };
  settings: { file: string; entries: SettingsEntry[] };
  notices: string[];
  /** What is broken now and must be fixed: a broken manifest, a missing entry page. */
  alerts: string[];
}

/** A change asked for in the host page's controls; anything else is refused. */
export type ControlRequest =
  | { action: 'choose'; toolType?: unknown; userRole?: unknown; cultureCode?: unknown; sdkVersion?: unknown }
  | { action: 'reset-quote' }
  | { action: 'reset-settings' }
  | { action: 'reload' };

export type ControlOutcome = { ok: true; reloadTool: boolean } | { ok: false; message: string };

export interface DevSessionOptions {
  tool: ToolInfo;
  fixtures: Fixtures;
  fixturesFile: string | null;
  sdkVersion: string;
  settings: SessionSettingsStore;
  /** Told after every call, for the terminal log. */
  onCall?: (method: string, outcome: CallOutcome) => void;
  /** How long an ordered call waits for an earlier one that never arrives; 2000 ms when left out. */
  gapMs?: number;
}

export interface DevSession {
  /**
   * Runs one bridge call; with an order, only after every earlier call of its page load. `bytes`
   * is the size of the call as it crossed to the host: over MAX_CALL_BYTES the call is refused
   * with CALL_TOO_LARGE, in its turn, and its arguments are never looked at.
   */
  call(method: string, args: unknown[], order?: CallOrder, bytes?: number): Promise<CallOutcome>;
  /** A call of this place was refused before it could run: the later ones need not wait for it. */
  skip(order: CallOrder): void;
  /**
   * Runs a REST API operation on the platform, in turn with bridge calls, so that both see one
   * tenant's data in one order. Resolves with the operation's value and the model's warnings.
   */
  api<T>(operation: (platform: Platform) => T | Promise<T>): Promise<{ value: T; warnings: BridgeWarning[] }>;
  /** The REST API keys of the data set in use. */
  apiKeys(): readonly ApiKey[];
  control(request: Record<string, unknown>): Promise<ControlOutcome>;
  snapshot(): DevState;
  /** The page to open and the SDK to give it, without building the quote views. */
  current(): { entry: string; sdkVersion: string };
  setTool(tool: ToolInfo): void;
  setFindings(findings: Findings): void;
  /** The findings as the panel shows them: the folder's or the build's, with the served modules' (null until the first check). */
  findings(): Findings | null;
  /** What the code rules found in the modules another dev server serves; null: none are checked. */
  setServedFindings(served: Omit<ServedFindings, 'ruleIds'> | null): void;
  /** New fixture data; the open quote starts over from it. */
  setFixtures(fixtures: Fixtures): void;
  setFixtureError(message: string | null): void;
  /** A changed fixture file is being loaded (true), or the load is over (false). */
  setFixturesReloading(reloading: boolean): void;
}

export function createDevSession(options: DevSessionOptions): DevSession {
  let tool = options.tool;
  let fixtures = options.fixtures;
  let findings: Findings | null = null;
  let served: Omit<ServedFindings, 'ruleIds'> | null = null;
  let fixtureError: string | null = null;
  let fixturesReloading = false;
  const choices: HostChoices = { toolType: null, userRole: null, cultureCode: null, sdkVersion: options.sdkVersion };
  let warnings: BridgeWarning[] = [];
  // Calls run one at a time, as the host's single open quote takes them, so each call's
  // warnings and log entry belong to that call alone; the sequencer puts them in call order.
  let queue: Promise<unknown> = Promise.resolve();
  const sequencer = createCallSequencer({ gapMs: options.gapMs ?? 2000 });

  const currentFindings = () => (findings === null ? null : withServedFindings(findings, served));
  const toolType = (): BridgeToolType => choices.toolType ?? tool.manifestType ?? 'standalone';
  const context = (): BridgeContextDto => ({
    ...fixtures.context,
    ...(choices.userRole === null ? {} : { userRole: choices.userRole }),
    ...(choices.cultureCode === null ? {} : { cultureCode: choices.cultureCode }),
  });
  const makePlatform = (): Platform =>
    createPlatform({
      toolId: tool.toolId,
      toolType: toolType(),
      fixtures,
      sdkVersion: choices.sdkVersion,
      settingsStore: options.settings,
      onWarning: (warning) => warnings.push(warning),
    });
  let platform = makePlatform();
  let apiKeys = resolveApiKeys(fixtures.apiKeys);

  const runCall = async (method: string, args: unknown[], bytes: number | undefined): Promise<CallOutcome> => {
    warnings = [];
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    if (bytes !== undefined && bytes > MAX_CALL_BYTES) {
      const message =
        `${method} was not run: the call is ${groupDigits(bytes)} bytes as JSON, more than the ${groupDigits(MAX_CALL_BYTES)} ` +
        'the emulated host takes in one call. Nothing was changed; send less in one call (fewer lines in a batch, say).';
      return { ok: false, error: { name: 'BridgeError', code: 'CALL_TOO_LARGE', method, message, details: [] }, warnings, ms: elapsed() };
    }
    try {
      // The model refuses names it does not know (`__proto__` and friends too), naming the nearest.
      let value = await platform.call(method, args, { toolId: tool.toolId, toolType: toolType() });
      // The role and culture switches change what the tool is told, not the data it works on.
      if (method === 'context.get') value = { ...(value as BridgeContextDto), ...context() };
      return { ok: true, value, warnings, ms: elapsed() };
    } catch (error) {
      const model = error instanceof BridgeModelError ? error : new BridgeModelError('INTERNAL_ERROR', method, `${method} failed in the dev server: ${String(error)}`);
      const failure = { ...model.toJSON(), name: 'BridgeError' };
      // A tool-type refusal caused by the manifest says so, or the author looks in the wrong place.
      const cause = model.code === 'TOOL_TYPE_NOT_ALLOWED' && choices.toolType === null ? manifestCause(tool) : null;
      if (cause !== null) failure.message = `${failure.message}. ${cause}`;
      return { ok: false, error: failure, warnings, ms: elapsed() };
    }
  };

  const choose = (request: Record<string, unknown>): ControlOutcome => {
    const next = { ...choices };
    const { toolType: type, userRole, cultureCode, sdkVersion } = request;
    if (type !== undefined) {
      if (type !== null && !TOOL_TYPES.includes(type as BridgeToolType)) return { ok: false, message: 'toolType must be standalone, quoting_extension or null' };
      next.toolType = type as BridgeToolType | null;
    }
    if (userRole !== undefined) {
      if (userRole !== null && (typeof userRole !== 'string' || !ROLE_TOKEN.test(userRole))) {
        return { ok: false, message: 'userRole must be a role token such as H_Admin (letters, digits and _)' };
      }
      next.userRole = userRole;
    }
    if (cultureCode !== undefined) {
      if (cultureCode !== null && (typeof cultureCode !== 'string' || !CULTURE_CODE.test(cultureCode))) {
        return { ok: false, message: 'cultureCode must have the form xx-XX, such as en-NZ' };
      }
      next.cultureCode = cultureCode;
    }
    if (sdkVersion !== undefined) {
      if (typeof sdkVersion !== 'string' || !isSupportedSdkVersion(sdkVersion)) return { ok: false, message: 'sdkVersion must be a version from 2.1.0 to 2.5.0' };
      next.sdkVersion = sdkVersion;
    }
    const sdkChanged = next.sdkVersion !== choices.sdkVersion;
    Object.assign(choices, next);
    // Another SDK version is another host: it starts with a fresh open quote.
    if (sdkChanged) platform = makePlatform();
    return { ok: true, reloadTool: true };
  };

  return {
    call(method, args, order, bytes) {
      return new Promise((resolve) => {
        sequencer.admit(order, () => {
          const result = queue.then(() => runCall(method, args, bytes));
          queue = result;
          void result.then((outcome) => options.onCall?.(method, outcome));
          resolve(result);
        });
      });
    },

    skip(order) {
      sequencer.skip(order);
    },

    api(operation) {
      const result = queue.then(async () => {
        warnings = [];
        const value = await operation(platform);
        return { value, warnings };
      });
      // A failed operation must not stop the calls queued after it.
      queue = result.catch(() => undefined);
      return result;
    },

    apiKeys() {
      return apiKeys;
    },

    async control(request) {
      switch (request['action']) {
        case 'choose':
          return choose(request);
        case 'reset-quote':
          platform.resetOpenQuote();
          return { ok: true, reloadTool: false };
        case 'reset-settings':
          await options.settings.clear({ tenantId: fixtures.context.tenantId, toolId: tool.toolId });
          return { ok: true, reloadTool: true };
        case 'reload':
          return { ok: true, reloadTool: true };
        default:
          return { ok: false, message: 'action must be choose, reset-quote, reset-settings or reload' };
      }
    },

    snapshot() {
      const tenantId = fixtures.context.tenantId;
      return {
        tool: { ...tool, toolType: toolType() },
        choices: { ...choices },
        sdkVersions: SDK_VERSION_CHOICES,
        roleSuggestions: ROLE_SUGGESTIONS,
        context: context(),
        methods: [...platform.methods],
        editor: platform.editorView(),
        preview: platform.customerPreview(),
        createdQuotes: platform.createdQuotes(),
        findings: currentFindings(),
        fixtures: { file: options.fixturesFile, error: fixtureError, reloading: fixturesReloading },
        settings: {
          file: options.settings.file,
          entries: options.settings.entries().filter((entry) => entry.tenantId === tenantId && entry.toolId === tool.toolId),
        },
        notices: tool.notes,
        alerts: tool.alerts,
      };
    },

    current() {
      return { entry: tool.entry, sdkVersion: choices.sdkVersion };
    },
    setTool(next) {
      tool = next;
    },
    setFindings(next) {
      findings = next;
    },
    findings: currentFindings,
    setServedFindings(next) {
      served = next;
    },
    setFixtures(next) {
      fixtures = next;
      fixtureError = null;
      fixturesReloading = false;
      platform = makePlatform();
      apiKeys = resolveApiKeys(next.apiKeys);
    },
    setFixtureError(message) {
      fixtureError = message;
      fixturesReloading = false;
    },
    setFixturesReloading(reloading) {
      fixturesReloading = reloading;
    },
  };
}
