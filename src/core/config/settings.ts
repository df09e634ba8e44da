import { rules as registry } from '../rules/index.js';
import type { RuleSetting } from '../validate.js';
import { filesMatcher } from './globs.js';

/** Rule settings for the files that match `files` (gitignore patterns, paths inside the bundle). */
export interface RuleOverride {
  files: readonly string[];
  rules: Readonly<Record<string, RuleSetting>>;
}

/** Overrides with their patterns compiled once, for a run that resolves many findings. */
export interface SettingsResolver {
  /**
   * The setting of one rule for one finding: top level for a finding without a file. A finding
   * placed at its source through a source map has two paths, its source's and its built file's;
   * an override applies when its patterns match either.
   */
  settingFor(ruleId: string, file: string | readonly string[] | undefined): RuleSetting | undefined;
  /** Whether any override names this rule, so it must run even when it is off at the top level. */
  overridden(ruleId: string): boolean;
}

/**
 * Settings in the manner of eslint's flat config: the top-level `rules` apply everywhere, then
 * each override whose `files` match the finding's file, in order, the last one winning.
 */
export function settingsResolver(rules: Readonly<Record<string, RuleSetting>>, overrides: readonly RuleOverride[]): SettingsResolver {
  const compiled = overrides.map((override) => ({ matches: filesMatcher(override.files), rules: override.rules }));
  const named = new Set(overrides.flatMap((override) => Object.keys(override.rules)));
  return {
    settingFor(ruleId, file) {
      let setting = rules[ruleId];
      if (file === undefined) return setting;
      const paths = typeof file === 'string' ? [file] : file;
      for (const override of compiled) {
        const own = override.rules[ruleId];
        if (own !== undefined && paths.some((one) => override.matches(one))) setting = own;
      }
      return setting;
    },
    overridden: (ruleId) => named.has(ruleId),
  };
}

/** Every rule with the setting that applies to one file (or, without a file, to the whole bundle). */
export function effectiveSettings(rules: Readonly<Record<string, RuleSetting>>, overrides: readonly RuleOverride[], file?: string): Record<string, RuleSetting> {
  const resolver = settingsResolver(rules, overrides);
  const settings: Record<string, RuleSetting> = {};
  for (const rule of registry) settings[rule.id] = resolver.settingFor(rule.id, file) ?? (rule.severity === 'warning' ? 'warn' : 'error');
  return settings;
}

/**
 * `--rule` flags win over the project file, for every file: they join the top-level settings and
 * leave the overrides, so that no override can undo what the command line asked for.
 */
export function withRuleFlags(
  rules: Readonly<Record<string, RuleSetting>>,
  overrides: readonly RuleOverride[],
  flags: Readonly<Record<string, RuleSetting>>,
): { rules: Record<string, RuleSetting>; overrides: RuleOverride[] } {
  const flagged = new Set(Object.keys(flags));
  return {
    rules: { ...rules, ...flags },
    overrides: overrides
      .map((override) => ({ files: override.files, rules: Object.fromEntries(Object.entries(override.rules).filter(([id]) => !flagged.has(id))) }))
      .filter((override) => Object.keys(override.rules).length > 0),
  };
}
