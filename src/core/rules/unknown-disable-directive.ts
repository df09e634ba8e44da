import { defineCollectedRule } from './rule.js';

export default defineCollectedRule<{ ruleId: string; suggestion?: string; locked?: boolean }>({
  id: 'unknown-disable-directive',
  severity: 'warning',
  description: 'A pipeline-tool-disable-next-line comment names a rule that does not exist, or a locked rule that no comment can silence.',
  why: 'Such a comment silences nothing: a rule that does not exist is most likely a typo, and a locked rule cannot be silenced.',
  fix: 'Correct the id (the message gives the nearest), or fix what the locked rule reports.',
  message: ({ ruleId, suggestion, locked }) =>
    locked
      ? `pipeline-tool-disable-next-line names "${ruleId}", a locked rule (a marketplace limit or the archive's integrity): the platform enforces it whatever the comment says, so it silences nothing. Fix the problem instead.`
      : `pipeline-tool-disable-next-line names "${ruleId}", which is not a rule, so it silences nothing` +
        (suggestion ? `; did you mean "${suggestion}"?` : '. Run `pipeline-tool rules` to list them.'),
});
