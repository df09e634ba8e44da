// pipeline-tool/testing: a tool's tests against the emulated host, with or without its page.
export { createTestHost, type CallRecord, type ManifestFields, type TestHost, type TestHostOptions } from './test-host.js';
export { loadTool, TOOL_ORIGIN, type LoadedTool, type LoadToolOptions } from './load-tool.js';
export type { ConsoleEntry } from './sandbox.js';
export type { CallError } from '../dev/session.js';
export type { PipelineSdk, BridgeToolType, BridgeContextDto } from '../bridge/types.js';
export type {
  BridgeWarning,
  CreatedQuote,
  CustomerPreview,
  EditorLine,
  EditorView,
  FixtureFile,
  JsonValue,
} from '../platform/index.js';
