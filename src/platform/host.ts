import type { BridgeContextDto, BridgeToolType, PipelineSdk } from '../bridge/types.js';
import { readAddLinesCall, readAddSectionsCall, type AddLinesBatch } from './add-lines.js';
import { CallChecks, describeValue } from './arguments.js';
import { nextQuoteNumber, readCreateQuoteRequest, saveQuote, type CreatedQuote, type QuoteRequestDraft } from './create-quote.js';
import { DEFAULT_FIXTURES } from './default-fixtures.js';
import { BridgeModelError, rejectArguments, type BridgeWarning } from './errors.js';
import { fixtureSettingSlot, type Fixtures } from './fixtures.js';
import {
  compareCodes,
  newestFirst,
  pageRows,
  readListOptions,
  toCostItemDto,
  toCustomerDto,
  toJobCostTemplateDto,
  toJobDto,
  toProductDto,
  toQuoteDto,
  toTaskTemplateDto,
} from './lists.js';
import {
  buildCustomerPreview,
  buildEditorView,
  createOpenQuote,
  hasSafeTotals,
  mergeIntoQuote,
  type CustomerPreview,
  type EditorView,
  type OpenQuote,
} from './quote.js';
import {
  ADD_LINES_SECTIONS_SINCE,
  BRIDGE_METHODS,
  CURRENT_SDK_VERSION,
  describeUnknownMethod,
  hasSince,
  isBridgeMethod,
  isSupportedSdkVersion,
  listSdkMethods,
  type BridgeMethodName,
} from './sdk-versions.js';
import { copyJson, createMemorySettingsStore, findNonJson, settingSlot, type JsonValue, type SettingsStore } from './settings.js';
import { API_CREATE_QUOTE, fixtureQuoteToApi, readApiQuoteRequest, toApiQuote, type ApiQuote } from './rest/quotes.js';
import { createTenantData, sameId, type TenantData } from './tenant-data.js';

/*
 * The platform in a box: the host side of every bridge method over fixture data, with no
 * server, browser, timers or printing. `pipeline-tool dev` puts a transport in front of `call`.
 */

export interface PlatformOptions {
  /** Identifies the tool for its settings; use the manifest's name. */
  toolId: string;
  /** From the manifest; decides whether the tool may change the open quote. */
  toolType: BridgeToolType;
  /** The data set; the built-in one when left out. */
  fixtures?: Fixtures;
  /** SDK version to act as, from 2.1.0 to 2.5.0 (the default). Later methods are then absent. */
  sdkVersion?: string;
  /** Replaces fields of the fixtures' context. A different tenantId shows that tenant's rows. */
  context?: Partial<BridgeContextDto>;
  /** Where settings.set writes; in memory when left out. Fixture settings act as defaults. */
  settingsStore?: SettingsStore;
  /** Receives the emulator's warnings after each call that succeeds. Must not throw. */
  onWarning?: (warning: BridgeWarning) => void;
  /** Makes GUIDs for new quotes and customers; crypto.randomUUID by default. */
  generateId?: () => string;
  /** The clock for quote dates. */
  now?: () => Date;
}

/** Who is calling, when one platform serves more than one tool. */
export interface Caller {
  toolId: string;
  toolType: BridgeToolType;
}

export interface Platform {
  readonly sdkVersion: string;
  /** The methods this host answers, given its SDK version. */
  readonly methods: readonly BridgeMethodName[];
  /**
   * `window.pipeline` as the host would expose it to the tool of the options. Typed as SDK 2.5.0,
   * like the real bridge: on an older version the methods it lacks are absent at run time.
   */
  readonly sdk: PipelineSdk;
  /**
   * Answers a bridge method by name (`quotes.addLines`) with its arguments, for a transport.
   * Resolves to plain JSON data; rejects with a BridgeModelError.
   */
  call(method: string, args?: readonly unknown[], caller?: Caller): Promise<unknown>;
  /** The open quote as the operator's editor shows it. */
  editorView(): EditorView;
  /** The open quote as the customer's printed quote shows it. */
  customerPreview(): CustomerPreview;
  /** Quotes made by quotes.create, oldest first, with their lines. */
  createdQuotes(): CreatedQuote[];
  /** Empties the open quote, as if the user discarded their changes. */
  resetOpenQuote(): void;
  /**
   * POST /api/v1/quotes of the REST API: checks the body by quotes.create's rules, saves the quote
   * beside those of quotes.create and returns it. Throws a BridgeModelError INVALID_ARGUMENT
   * (method `POST /api/v1/quotes`) naming every problem; warnings go to onWarning.
   */
  createApiQuote(body: unknown): ApiQuote;
  /** GET /api/v1/quotes/{id}: the tenant's quote with this id (in any letter case) and its lines, or undefined. */
  findApiQuote(id: string): ApiQuote | undefined;
}

const TOOL_TYPES: readonly BridgeToolType[] = ['standalone', 'quoting_extension'];

function checkOptions(options: PlatformOptions, sdkVersion: string): void {
  if (typeof options.toolId !== 'string' || options.toolId === '') throw new TypeError('createPlatform: toolId must be a non-empty string');
  if (!TOOL_TYPES.includes(options.toolType)) {
    throw new TypeError(`createPlatform: toolType must be ${TOOL_TYPES.join(' or ')}, got ${describeValue(options.toolType)}`);
  }
  if (!isSupportedSdkVersion(sdkVersion)) {
    throw new RangeError(`createPlatform: sdkVersion must be a version from 2.1.0 to ${CURRENT_SDK_VERSION}, got ${describeValue(sdkVersion)}`);
  }
}

type Handler = (args: readonly unknown[], checks: CallChecks, caller: Caller) => unknown;

export function createPlatform(options: PlatformOptions): Platform {
  const sdkVersion = options.sdkVersion ?? CURRENT_SDK_VERSION;
  checkOptions(options, sdkVersion);
  const fixtures = options.fixtures ?? DEFAULT_FIXTURES;
  const context: BridgeContextDto = { ...fixtures.context, ...options.context };
  const tenantId = context.tenantId;
  const data: TenantData = createTenantData(fixtures);
  const store = options.settingsStore ?? createMemorySettingsStore();
  const settingDefaults = new Map(fixtures.settings.map((s) => [fixtureSettingSlot(s, fixtures.context.tenantId), s.value]));
  const generateId = options.generateId ?? (() => globalThis.crypto.randomUUID());
  const now = options.now ?? (() => new Date());
  const defaultCaller: Caller = { toolId: options.toolId, toolType: options.toolType };
  const created: CreatedQuote[] = [];
  let openQuote: OpenQuote = createOpenQuote(fixtures.openQuote);

  const own = <T extends { tenantId: string }>(rows: readonly T[]) => rows.filter((row) => row.tenantId === tenantId);
  const active = <T extends { tenantId: string; active: boolean }>(rows: readonly T[]) => own(rows).filter((row) => row.active);
  const list = (args: readonly unknown[], checks: CallChecks, withCodes: boolean) => {
    const request = readListOptions(args[0], withCodes, checks);
    if (request === undefined) throw rejectArguments('INVALID_ARGUMENT', checks.method, checks.problems);
    return request;
  };

  /** Merges a checked batch, or rejects it whole; the open quote is replaced only on success. */
  const applyBatch = (batch: AddLinesBatch, checks: CallChecks) => {
    if (checks.failed) throw rejectArguments('BATCH_REJECTED', checks.method, checks.problems);
    const merged = mergeIntoQuote(openQuote, batch.lines, batch.sections);
    if (!hasSafeTotals(merged)) {
      checks.problem('OUT_OF_RANGE', { path: 'lines', index: null, field: null }, 'the quote total would be too large to be represented exactly');
      throw rejectArguments('BATCH_REJECTED', checks.method, checks.problems);
    }
    openQuote = merged;
  };

  /** Numbers and saves a checked quote; quotes.create and the REST API both end here. */
  const saveDraft = (draft: QuoteRequestDraft) => {
    const refs = [openQuote.header.ref, ...own(data.quotes).map((q) => q.ref)];
    const nextRef = () => `Q-${nextQuoteNumber(refs)}`;
    const saved = saveQuote(draft, { data, tenantId }, { generateId, now, nextRef });
    created.push(saved.quote);
    return saved;
  };

  const readSettingKey = (key: unknown, checks: CallChecks): string | undefined => {
    const place = { path: 'key', index: null, field: null };
    if (key === undefined || key === null || key === '') checks.problem('REQUIRED', place, 'is required: a non-empty string');
    else if (typeof key !== 'string') checks.problem('INVALID_TYPE', place, `must be a string, got ${describeValue(key)}`);
    else return key;
    return undefined;
  };

  const handlers: Record<BridgeMethodName, Handler> = {
    'context.get': () => ({ ...context }),
    'customers.list': (args, checks) => pageRows(own(data.customers), list(args, checks, false), toCustomerDto),
    'products.list': (args, checks) => pageRows(own(data.products), list(args, checks, false), toProductDto),
    'taskTemplates.list': (args, checks) =>
      pageRows(active(data.taskTemplates), list(args, checks, true), toTaskTemplateDto, (row) => row.code),
    'costItems.list': (args, checks) => {
      checks.warn('DEPRECATED', null, 'costItems.list is deprecated; use jobCostTemplates.list and lineType jobcost');
      return pageRows(active(data.costItems), list(args, checks, true), toCostItemDto, (row) => row.code);
    },
    'jobCostTemplates.list': (args, checks) =>
      pageRows(active(data.jobCostTemplates).sort(compareCodes), list(args, checks, true), toJobCostTemplateDto, (row) => row.code),
    'jobs.list': (args, checks) => pageRows(active(data.jobs), list(args, checks, false), toJobDto),
    'quotes.list': (args, checks) => pageRows(newestFirst(own(data.quotes)), list(args, checks, false), toQuoteDto),
    'quotes.create': (args, checks) => {
      const draft = readCreateQuoteRequest(args[0], checks, { data, tenantId });
      if (draft === undefined) throw rejectArguments('INVALID_ARGUMENT', checks.method, checks.problems);
      return saveDraft(draft).result;
    },
    'quotes.addLines': (args, checks) => {
      const sectionsAllowed = hasSince(sdkVersion, ADD_LINES_SECTIONS_SINCE);
      applyBatch(readAddLinesCall(args[0], args[1], sectionsAllowed, checks, { data, tenantId }), checks);
      return undefined;
    },
    'quotes.addSections': (args, checks) => {
      applyBatch(readAddSectionsCall(args[0], checks), checks);
      return undefined;
    },
    'settings.get': async (args, checks, caller) => {
      const key = readSettingKey(args[0], checks);
      if (key === undefined) throw rejectArguments('INVALID_ARGUMENT', checks.method, checks.problems);
      const scope = { tenantId, toolId: caller.toolId };
      // A stored null is a value the tool chose; only a key never set falls back to the fixture.
      const stored = await store.read(scope, key);
      return copyJson(stored !== undefined ? stored : (settingDefaults.get(settingSlot(scope, key)) ?? null));
    },
    'settings.set': async (args, checks, caller) => {
      const key = readSettingKey(args[0], checks);
      const value = args[1];
      const valuePlace = { path: 'value', index: null, field: null };
      const notJson = value === undefined ? null : findNonJson(value);
      if (value === undefined) checks.problem('REQUIRED', valuePlace, 'is required; send null to clear a setting');
      else if (notJson !== null) checks.problem('INVALID_TYPE', valuePlace, `must be JSON data: ${notJson}`);
      if (key === undefined || checks.failed) throw rejectArguments('INVALID_ARGUMENT', checks.method, checks.problems);
      await store.write({ tenantId, toolId: caller.toolId }, key, copyJson(value as JsonValue));
      return undefined;
    },
  };

  const call = async (method: string, args: readonly unknown[] = [], caller: Caller = defaultCaller): Promise<unknown> => {
    // A transport may hand over anything; String() could even throw on a null-prototype object.
    const name = typeof method === 'string' ? method : describeValue(method);
    if (!isBridgeMethod(name)) throw new BridgeModelError('UNKNOWN_METHOD', name, describeUnknownMethod(name.slice(0, 100), listSdkMethods(sdkVersion)));
    const info = BRIDGE_METHODS[name];
    if (!hasSince(sdkVersion, info.since)) {
      throw new BridgeModelError('METHOD_NOT_AVAILABLE', name, `${name} arrived in SDK ${info.since}; this host acts as SDK ${sdkVersion}`);
    }
    if (!info.toolTypes.includes(caller.toolType)) {
      throw new BridgeModelError(
        'TOOL_TYPE_NOT_ALLOWED',
        name,
        `${name} may only be called by a ${info.toolTypes.join(' or ')} tool; this tool is ${caller.toolType}`,
      );
    }
    if (!Array.isArray(args)) throw new BridgeModelError('INVALID_ARGUMENT', name, `${name}: the arguments must be an array`);
    const checks = new CallChecks(name);
    let result: unknown;
    try {
      result = await handlers[name](args, checks, caller);
    } catch (error) {
      if (error instanceof BridgeModelError) throw error;
      throw new BridgeModelError('INTERNAL_ERROR', name, `${name} failed inside the emulator: ${String(error)}`, [], { cause: error });
    }
    for (const warning of checks.warnings) options.onWarning?.(warning);
    return result;
  };

  const sdk: Record<string, unknown> = { version: sdkVersion };
  for (const method of listSdkMethods(sdkVersion)) {
    const [space, member] = method.split('.') as [string, string];
    const namespace = (sdk[space] ??= {}) as Record<string, unknown>;
    namespace[member] = (...args: unknown[]) => call(method, args);
  }

  return {
    sdkVersion,
    methods: listSdkMethods(sdkVersion),
    sdk: sdk as unknown as PipelineSdk,
    call,
    editorView: () => buildEditorView(openQuote),
    customerPreview: () => buildCustomerPreview(openQuote, fixtures.quoteTemplate),
    createdQuotes: () => created.map((quote) => structuredClone(quote)),
    resetOpenQuote: () => {
      openQuote = createOpenQuote(fixtures.openQuote);
    },
    createApiQuote: (body) => {
      const checks = new CallChecks(API_CREATE_QUOTE);
      const draft = readApiQuoteRequest(body, checks, { data, tenantId });
      if (draft === undefined) throw rejectArguments('INVALID_ARGUMENT', checks.method, checks.problems);
      const { quote } = saveDraft(draft);
      for (const warning of checks.warnings) options.onWarning?.(warning);
      return toApiQuote(quote);
    },
    findApiQuote: (id) => {
      const made = created.find((quote) => sameId(quote.id, id));
      if (made !== undefined) return toApiQuote(made);
      const row = own(data.quotes).find((quote) => sameId(quote.id, id));
      return row === undefined ? undefined : fixtureQuoteToApi(row, data);
    },
  };
}
