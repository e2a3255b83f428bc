/** IP-list entries in the write journal: the values of one create per event, under `entries`. */
import { ipWriteKey, listedIpWriteKey } from '../../model/ip-fingerprint.js';
import type { LiveIpEntry } from '../../model/ip.js';
import type { JournalSide } from './class.js';

export const IP_JOURNAL: JournalSide<LiveIpEntry> = {
  events: { 'created': 'ip-created', 'create-intent': 'ip-create-intent', 'deleted': 'ip-deleted' },
  event: (kind, at, objects) => ({ kind, at, entries: objects }),
  objects: (event) => event.entries as readonly LiveIpEntry[],
  writeKey: ipWriteKey,
  listedWriteKey: listedIpWriteKey,
  // An IP object holds several values: its id tells nothing of one of them.
  sameId: undefined,
};
