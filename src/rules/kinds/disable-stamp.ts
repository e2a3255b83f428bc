import { int } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  stamp: int({ min: 1, required: true, example: 7432, description: 'The signature id, as the attack\'s details show it.' }),
};

export const disableStamp = defineRuleKind({
  yaml: 'disable_stamp',
  api: 'disable_stamp',
  description: 'False-positive tuning: one detection signature (stamp) is ignored at `point`. The service wants an extended admin token for it.',
  point: 'required',
  fields,
  needsRight: 'an extended admin token (the service\'s "Administrator (extended)" role)',
  // The service could change `stamp` in place, but one point holds one rule per stamp (tuning stops each apart): it is what the rule is.
  updatable: [],
  // Still sent with every update, as the service's provider does (`WithStamp`): left out, it would be reset.
  carriedByUpdates: ['stamp'],
  evidence: { decides: 'ignoring-stamp', field: 'stamp' },
  describe: (f) => `ignores stamp ${f.stamp ?? '?'}`,
  examples: [{ stamp: 7432, point: [['post'], ['json_doc'], ['hash', 'bio']] }],
});
