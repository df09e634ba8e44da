import { Option } from 'commander';
import type { RuleSetting } from '../core/validate.js';
import { UsageError } from './errors.js';

/** `--rule <id=setting>`, repeatable: shared by every command that runs the validate rules. */
export function ruleOption(): Option {
  return new Option('--rule <id=setting>', 'turn a rule off or change its severity: off, warn or error (repeatable; locked rules cannot be relaxed)')
    .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .default([]);
}

/** `--rule id=off` pairs into settings; the core rejects unknown ids, naming the nearest one. */
export function parseRuleFlags(values: readonly string[]): Record<string, RuleSetting> {
  const settings: Record<string, RuleSetting> = {};
  for (const value of values) {
    const match = /^([^=\s]+)=(off|warn|error)$/i.exec(value.trim());
    if (!match) throw new UsageError(`--rule takes <rule-id>=off|warn|error, for example --rule manifest-description=off; got "${value}".`);
    settings[match[1]!] = match[2]!.toLowerCase() as RuleSetting;
  }
  return settings;
}
