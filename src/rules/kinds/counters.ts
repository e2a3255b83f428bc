/**
 * The counters of the service's older trigger product: conditions only, made
 * once, never changed, and never deleted by a client (the service removes one
 * when no trigger uses it any more). One declaration per counter type.
 */
import { defineRuleKind } from '../kind.js';

function counter<const Y extends string>(yaml: Y, api: string, counts: string) {
  return defineRuleKind({
    yaml,
    api,
    description: `A counter of ${counts} for the service's triggers (the API's \`${api}\`). Conditions only; a client cannot delete it: removed from the policies, it stays until no trigger uses it.`,
    point: 'none',
    fields: {},
    updatable: [],
    undeletable: 'always',
    describe: () => `counts ${counts}`,
    examples: [{ when: [{ point: ['path', 0], equal: 'login' }] }],
  });
}

export const bruteforceCounter = counter('bruteforce_counter', 'brute_counter', 'brute-force attempts');
export const dirbustCounter = counter('dirbust_counter', 'dirbust_counter', 'forced-browsing attempts');
export const bolaCounter = counter('bola_counter', 'bola_counter', 'BOLA attempts');
