/** IP-list entries as the policy language declares them: `ip_lists` of a document (ip-compile.ts). */
import { compareIpIdentity, type DesiredIpEntry } from '../../model/ip.js';
import type { PolicyClass } from './class.js';
import { compileIpEntries } from './ip-compile.js';
import { ipConflicts } from './ip-conflicts.js';

export const IP_POLICY: PolicyClass<DesiredIpEntry> = {
  compile: compileIpEntries,
  // By identity, then expiry.
  sort: (entries) => [...entries].sort((a, b) => compareIpIdentity(a, b) || a.expiresAt - b.expiresAt),
  conflicts: ipConflicts,
};
