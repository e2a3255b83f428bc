/**
 * Non-address IP-list values: countries (ISO-3166 alpha-2, the official list
 * shipped in data/), proxy types and datacenters. Each check returns the
 * canonical value or a message with a suggestion.
 */
import { DATACENTERS, PROXY_TYPES } from '../model/ip.js';
import countries from './data/iso3166-1-alpha2.json' with { type: 'json' };
import { closest, didYouMean } from '../grammar/suggest.js';

const COUNTRY_NAMES: Readonly<Record<string, string>> = countries;

/** Common non-ISO spellings people write. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', EL: 'GR', EN: 'GB' };
const DATACENTER_ALIASES: Readonly<Record<string, string>> = {
  amazon: 'aws', google: 'gce', gcp: 'gce', microsoft: 'azure', alibabacloud: 'alibaba', aliyun: 'alibaba', akamai: 'linode',
};

export type ValueCheck = { ok: true; value: string } | { ok: false; message: string };

export function checkCountry(input: string): ValueCheck {
  const code = input.trim().toUpperCase();
  if (Object.prototype.hasOwnProperty.call(COUNTRY_NAMES, code)) return { ok: true, value: code };
  const alias = COUNTRY_ALIASES[code];
  if (alias) return { ok: false, message: `unknown country code "${input}"; did you mean "${alias}" (${COUNTRY_NAMES[alias]})?` };
  const byName = closest(input, Object.values(COUNTRY_NAMES));
  const nameCode = byName === undefined ? undefined : Object.keys(COUNTRY_NAMES).find((c) => COUNTRY_NAMES[c] === byName);
  const hint = nameCode ? `; did you mean "${nameCode}" (${byName})?` : '';
  return { ok: false, message: `unknown country code "${input}": use an ISO-3166 alpha-2 code such as DE or US${hint}` };
}

export function checkProxy(input: string): ValueCheck {
  const value = input.trim().toUpperCase();
  if ((PROXY_TYPES as readonly string[]).includes(value)) return { ok: true, value };
  return { ok: false, message: `unknown proxy type "${input}": one of ${PROXY_TYPES.join(', ')}${didYouMean(value, PROXY_TYPES)}` };
}

export function checkDatacenter(input: string): ValueCheck {
  const value = input.trim().toLowerCase();
  if ((DATACENTERS as readonly string[]).includes(value)) return { ok: true, value };
  const alias = DATACENTER_ALIASES[value.replace(/[^a-z]/g, '')];
  const hint = alias ? `; did you mean "${alias}"?` : didYouMean(value, DATACENTERS);
  return { ok: false, message: `unknown datacenter "${input}": one of ${DATACENTERS.join(', ')}${hint}` };
}
