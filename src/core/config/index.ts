// The project file: pipeline-tool.config.json, its checks, and the rule settings it gives each file.
export { CONFIG_FILE, CONFIG_SCHEMA_REFERENCE, ConfigError, parseProjectConfig, type ProjectConfig } from './project-config.js';
export { findConfigFile, loadProjectConfig, loadProjectConfigSync, type LoadedConfig } from './load-config.js';
export { effectiveSettings, settingsResolver, withRuleFlags, type RuleOverride, type SettingsResolver } from './settings.js';
export { filesMatcher, globProblem } from './globs.js';
