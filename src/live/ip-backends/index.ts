/** The IP-list backend of a connection: the one place that picks between the two APIs. */
import type { IpApiName } from '../../model/ip-list-apis.js';
import type { ServiceApi } from '../../api/service.js';
import type { IpBackend } from './backend.js';
import { GROUPS_BACKEND } from './groups.js';
import { V4_BACKEND } from './v4.js';

const BACKENDS: Readonly<Record<IpApiName, IpBackend>> = { v4: V4_BACKEND, groups: GROUPS_BACKEND };

export function ipBackendOf(api: Pick<ServiceApi, 'ipApi'>): IpBackend {
  return BACKENDS[api.ipApi];
}

export type { IpBackend, IpListOptions, IpObjectRef } from './backend.js';
