// The library entry point: everything the CLI does, a program can do by importing these.
export { validateBundle, type ValidateOptions, type RuleSetting, type SourceMapOptions } from './core/validate.js';
export { CONFIG_FILE, ConfigError, loadProjectConfig, parseProjectConfig, effectiveSettings, type LoadedConfig, type ProjectConfig, type RuleOverride } from './core/config/index.js';
export { openBundle } from './core/bundle/open-bundle.js';
export { openZipSource } from './core/bundle/zip/zip-source.js';
export { openFolderSource } from './core/shipment/folder-source.js';
export type { BundleSource, BundleEntry, EntryKind, ReadResult } from './core/shipment/source.js';
export type { Problem, Report, Severity, Finding, BuiltPosition } from './core/problem.js';
export { rules } from './core/rules/index.js';
export type { Rule, AnyRule } from './core/rules/rule.js';
export { UsageError } from './core/errors.js';
export { ALLOWED_EXTENSIONS } from './core/paths.js';
export { initProject, planProject, checkAnswers, completeAnswers, describeAnswerProblem, InitAnswersError, TEMPLATE_NAMES, type InitAnswers, type InitOptions, type InitResult, type AnswerProblem, type ToolType, type TemplateName } from './core/init/index.js';
export { runningToolkitSource, toolkitSourceFrom, type ToolkitSource } from './core/init/index.js';
export {
  packFolder,
  ManifestElsewhereError,
  ProjectsHereError,
  COMPRESSION_LEVEL,
  DEFAULT_TIMESTAMP,
  type PackOptions,
  type PackProgress,
  type PackResult,
  type IncludedFile,
} from './core/pack/pack-folder.js';
export { DestinationExistsError } from './core/pack/destination.js';
export { reportBundle, type BundleReport, type ReportOptions, type ReportFile, type ReportOrigin, type ReportFinding, type Sized } from './core/report/bundle-report.js';
export { bundleLimits, limitsOf, sizeLine, type BundleLimits, type Measure } from './core/report/limits.js';
export { renderReportPage, type PageOptions } from './report-page/render.js';
export { bumpVersion, nextVersion, RELEASE_TYPES, type BumpOptions, type BumpResult, type ReleaseType, type VersionChange } from './core/release/bump-version.js';
export type { ExcludedEntry, ExclusionReason } from './core/shipment/select-files.js';
export { startDevServer, DevServerError, type DevServer, type DevServerOptions } from './dev/server.js';
export {
  createPlatform,
  loadFixtureFile,
  parseFixtures,
  BridgeModelError,
  FixtureError,
  DEFAULT_FIXTURES,
  listSdkMethods,
  createMemorySettingsStore,
  type Platform,
  type PlatformOptions,
  type Fixtures,
  type SettingsStore,
} from './platform/index.js';
