/**
 * The applications of each client the policies name (`POST /v1/objects/pool`),
 * read beside the live state: an application must be configured before a
 * rule or IP entry names it (the specification), and a policy naming one the
 * account does not have would write objects that protect nothing. A token
 * that may not list them (403) is not a failed read: the check is then said
 * to be skipped.
 */
import { APPLICATION_PAGE_LIMIT, type ServiceApi } from '../api/service.js';
import { ApiAuthError, ApiProtocolError } from '../errors.js';

/** A client's applications by id (with their names), or why they could not be read. */
export type ClientApplications =
  | { readonly listed: ReadonlyMap<number, string> }
  | { readonly unreadable: string };

/** More pages than any account holds applications: a listing past it is not trusted. */
const MAX_PAGES = 40;

export async function readApplications(api: ServiceApi, clients: readonly number[], signal?: AbortSignal): Promise<Map<number, ClientApplications>> {
  const read = await Promise.all(clients.map(async (client): Promise<[number, ClientApplications]> => {
    try {
      return [client, { listed: await listAll(api, client, signal) }];
    } catch (error) {
      // Only a refusal of the right to list is a skipped check; any other failure fails the read.
      if (error instanceof ApiAuthError && !error.tokenRejected) return [client, { unreadable: error.message }];
      throw error;
    }
  }));
  return new Map(read);
}

async function listAll(api: ServiceApi, client: number, signal: AbortSignal | undefined): Promise<Map<number, string>> {
  const apps = new Map<number, string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await api.listApplications(client, page * APPLICATION_PAGE_LIMIT, APPLICATION_PAGE_LIMIT, signal ? { signal } : {});
    // As the service's client does: one deleted or without an id is not an application.
    for (const app of listed) if (app.id !== null && !app.deleted && (app.clientid === undefined || app.clientid === client)) apps.set(app.id, app.name);
    if (listed.length < APPLICATION_PAGE_LIMIT) return apps;
  }
  throw new ApiProtocolError(`POST /v1/objects/pool of client ${client} was still full after ${MAX_PAGES} pages`, { route: 'POST /v1/objects/pool' });
}
