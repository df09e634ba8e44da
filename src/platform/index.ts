// The emulated Pipeline host: what `pipeline-tool dev` and tests build on.
export { createPlatform, type Caller, type Platform, type PlatformOptions } from './host.js';
export {
  BridgeModelError,
  describeWarning,
  ERROR_CODES,
  FIXTURE_ERROR_CODES,
  FixtureError,
  PROBLEM_CODES,
  WARNING_CODES,
  type BridgeWarning,
  type FixtureErrorCode,
  type FixtureProblem,
  type WarningCode,
} from './errors.js';
export {
  applyFixtureFile,
  checkFixtures,
  loadFixtureFile,
  mergeFixtureFile,
  parseFixtures,
  readFixtureBytes,
  validateFixtureValue,
  type FixtureCostItem,
  type FixtureCustomer,
  type FixtureFile,
  type FixtureJob,
  type FixtureJobCostTemplate,
  type FixtureOpenQuote,
  type FixtureProduct,
  type FixtureQuote,
  type Fixtures,
  type FixtureSetting,
  type FixtureSupplier,
  type FixtureTaskTemplate,
  type QuoteTemplateSettings,
  type TaskSequenceStep,
} from './fixtures.js';
export { DEFAULT_API_KEY, DEFAULT_FIXTURES, DEFAULT_TENANT_ID, OTHER_TENANT_ID } from './default-fixtures.js';
export {
  API_BASE_PATH,
  API_ENDPOINTS,
  DEFAULT_API_RATE_LIMIT,
  readyApiKey,
  resolveApiKeys,
  type ApiEndpoint,
  type ApiKey,
  type FixtureApiKey,
  type RateLimit,
} from './rest/keys.js';
export { API_ERROR_CODES, apiErrorBody, type ApiErrorBody, type ApiErrorCode, type ApiProblem } from './rest/codes.js';
export { API_CREATE_QUOTE, type ApiQuote } from './rest/quotes.js';
export {
  ADD_LINES_SECTIONS_SINCE,
  BRIDGE_METHODS,
  CURRENT_SDK_VERSION,
  OLDEST_SDK_VERSION,
  isSupportedSdkVersion,
  listSdkMethods,
  type BridgeMethodInfo,
  type BridgeMethodName,
} from './sdk-versions.js';
export {
  createMemorySettingsStore,
  type JsonValue,
  type MemorySettingsStore,
  type SettingsEntry,
  type SettingsScope,
  type SettingsStore,
} from './settings.js';
export type {
  CustomerPreview,
  EditorBlock,
  EditorLine,
  EditorView,
  OpenQuoteHeader,
  PreviewBlock,
  PreviewLine,
  QuoteLineData,
  ViewSection,
} from './quote.js';
export type { CreatedQuote, CreatedQuoteLine } from './create-quote.js';
export type { MoneyTotals } from './money.js';
export { scanJson, type JsonScan } from '../core/json/scan-json.js';
