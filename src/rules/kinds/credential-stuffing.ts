/** What the two credential-stuffing kinds share: the list of the account's configuration a rule belongs to. */
import { oneOf } from '../field.js';

export const credStuffType = oneOf(['custom', 'default'] as const, {
  serviceDefault: 'custom', example: 'custom',
  description: 'The list of the account\'s credential-stuffing configuration the rule belongs to: `custom` (when left out) or `default`.',
});
