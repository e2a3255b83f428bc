import { int, oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  rate: int({ min: 0, max: 1000, required: true, example: 30, description: 'Requests allowed per time unit.' }),
  rsp_status: int({ min: 400, max: 599, required: true, example: 429, description: 'The status answered beyond the rate.' }),
  burst: int({ min: 0, max: 1000, serviceDefault: 0, example: 10, description: 'Requests allowed above the rate in a burst (0 when left out).' }),
  delay: int({ min: 0, max: 1000, serviceDefault: 0, example: 0, description: 'Requests delayed rather than refused, within the burst (0 when left out).' }),
  time_unit: oneOf(['rps', 'rpm'] as const, { serviceDefault: 'rps', example: 'rpm', description: 'Per second (`rps`, the default) or per minute (`rpm`).' }),
};

export const rateLimit = defineRuleKind({
  yaml: 'rate_limit',
  api: 'rate_limit',
  description: 'Rate limit: requests sharing the value at `point` beyond `rate` per `time_unit` are answered `rsp_status`.',
  point: 'required',
  fields,
  updatable: ['rate', 'rsp_status', 'burst', 'delay', 'time_unit'],
  unevaluable: 'a rate limit acts on how many requests arrive; hits record attacks, not request rates',
  describe: (f) => `${f.rate ?? '?'} ${f.time_unit ?? 'rps'}${f.burst ? ` (burst ${f.burst})` : ''}, then ${f.rsp_status ?? '?'}`,
  examples: [{ point: [['post'], ['json_doc'], ['hash', 'email']], rate: 30, rsp_status: 429, time_unit: 'rpm' }],
});
