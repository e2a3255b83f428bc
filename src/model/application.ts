/**
 * An application of an account, as both object classes name it: an IP entry
 * by its pools, a rule by its `instance` condition. 0 stands for every
 * application of the account.
 */

/** All applications of the account. */
export const ALL_APPLICATIONS_POOL = 0;
