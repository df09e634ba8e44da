import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ ruleId: string; suggestion?: string }>({
  id: 'unknown-disable-directive',
  severity: 'warning',
  description:
    'A `pipeline-tool-disable-next-line` comment names a rule that does not exist (with the nearest id).',
  why: 'A comment naming a rule that does not exist silences nothing, most likely a typo.',
  fix: 'Correct the id (the message gives the nearest).',
  message: ({ ruleId, suggestion }) =>
    `pipeline-tool-disable-next-line names "${ruleId}", which is not a rule, so it silences nothing` +
    (suggestion ? `; did you mean "${suggestion}"?` : '. Run `pipeline-tool rules` to list them.'),
});
