/** What the two credential-stuffing kinds share: the list of the account's configuration a rule belongs to. */
import { oneOf } from '../field.js';

export const credStuffType = oneOf(['custom', 'default'] as const, {
  // The service's clients always send it, `default` unless set (its provider's create and `WithCredStuffType`).
  serviceDefault: 'custom', createDefault: 'default', example: 'custom',
  description: 'The list of the account\'s credential-stuffing configuration the rule belongs to: `custom` or `default` (a create that leaves it out sends `default`, as the service\'s own client does).',
});
