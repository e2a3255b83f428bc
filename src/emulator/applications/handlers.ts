/**
 * `POST /v1/objects/pool`: a client's applications (the service's Go client,
 * application.go `AppRead`): `{"limit", "offset", "filter": {"clientid": [C]}}`
 * answers `[{id, clientid, name, deleted}]`. Every account has the default
 * application (-1); with `sampleApplications` on (the default) also the
 * sample ones the demo traffic and the sample policies use; and whatever a
 * test seeds. An application must exist before a rule or IP entry names it
 * (the specification); the emulator does not refuse such writes, as no
 * source says the service does.
 */
import type { EmulatorCore, Handler } from '../core.js';
import { optionalCount, requireIdList, requireRecord } from '../validate.js';
import type { ApplicationRecord } from './record.js';

/** The application every account has. */
export const DEFAULT_APPLICATION = { id: -1, name: 'default' } as const;

/** The sample account's applications: the shop and the public API of the sample policies and demo traffic, and two more tests use. */
export const SAMPLE_APPLICATIONS: readonly { readonly id: number; readonly name: string }[] = [
  { id: 1, name: 'main' },
  { id: 7, name: 'shop' },
  { id: 8, name: 'api' },
  { id: 9, name: 'admin' },
];

/** The most one page holds (the Go client asks for 500). */
const MAX_PAGE = 1000;

/** Every application of an account, by id. */
export function accountApplications(core: EmulatorCore, clientid: number): ApplicationRecord[] {
  const record = (app: { readonly id: number; readonly name: string }): ApplicationRecord => ({ id: app.id, clientid, name: app.name, deleted: false });
  const byId = new Map<number, ApplicationRecord>([[DEFAULT_APPLICATION.id, record(DEFAULT_APPLICATION)]]);
  if (core.config.sampleApplications) for (const app of SAMPLE_APPLICATIONS) byId.set(app.id, record(app));
  for (const app of core.applications.get(clientid) ?? []) byId.set(app.id, { ...app });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export const listApplications: Handler = (request, core) => {
  const body = requireRecord(request.body, 'body');
  const filter = requireRecord(body.filter, 'filter');
  const clients = requireIdList(filter.clientid, ['filter', 'clientid']);
  core.authorize(clients);
  const limit = optionalCount(body.limit, 'limit', { fallback: 50, min: 1, max: MAX_PAGE });
  const offset = optionalCount(body.offset, 'offset', { fallback: 0 });
  const rows = clients.flatMap((clientid) => accountApplications(core, clientid));
  return { body: rows.slice(offset, offset + limit) };
};
