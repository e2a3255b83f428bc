/**
 * Every kind requires what the service requires on create, as the notes list
 * it from the vendor's probe of each type's minimal create body (May 2026):
 * a policy that leaves one of these out is refused by `validate`, never by the
 * service's answer to a create.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadPolicyTexts } from '../../../src/policy/validate.js';
import { KIND_NAMES, ruleKind } from '../../../src/rules/registry.js';

/** Per policy type: the API fields the probe found required, and whether a point is. */
const PROBE: Readonly<Record<string, { fields: readonly string[]; point: boolean }>> = {
  vpatch: { fields: ['attack_type'], point: true },
  mode: { fields: ['mode'], point: false },
  disable_attack_type: { fields: ['attack_type'], point: true },
  disable_stamp: { fields: ['stamp'], point: true },
  regex: { fields: ['attack_type', 'regex'], point: true },
  ignore_regex: { fields: [], point: true }, // regex_id, or the regex rule it names: exactly one (checked below)
  binary_data: { fields: [], point: true },
  masking: { fields: [], point: true },
  uploads: { fields: ['file_type'], point: true },
  set_response_header: { fields: ['mode', 'name', 'values'], point: false },
  parser_state: { fields: ['parser', 'state'], point: true },
  overlimit_res_settings: { fields: ['overlimit_time'], point: false },
  rate_limit: { fields: ['rate', 'rsp_status'], point: true },
  forced_browsing: { fields: ['mode', 'reaction', 'threshold'], point: false },
  rate_limit_enum: { fields: ['mode', 'reaction', 'threshold'], point: false },
  brute: { fields: ['enumerated_parameters', 'mode', 'reaction', 'threshold'], point: false },
  bola: { fields: ['enumerated_parameters', 'mode', 'reaction', 'threshold'], point: false },
  enum: { fields: ['enumerated_parameters', 'mode', 'reaction', 'threshold'], point: false },
  graphql_detection: { fields: ['mode'], point: false },
  file_upload_size_limit: { fields: ['size'], point: false },
  // `mode` is required by the service, but the policy may leave it out: the create then says `enabled`.
  api_abuse_mode: { fields: [], point: false },
  credential_stuffing_regex: { fields: ['case_sensitive', 'login_regex', 'regex'], point: false },
  credential_stuffing_point: { fields: ['login_point'], point: true },
  bruteforce_counter: { fields: [], point: false },
  dirbust_counter: { fields: [], point: false },
  bola_counter: { fields: [], point: false },
};

describe('the minimal create body of every kind', () => {
  it('covers every kind', () => {
    expect(Object.keys(PROBE).sort()).toEqual([...KIND_NAMES].sort());
  });

  for (const name of KIND_NAMES) {
    it(`${name}: requires what the service requires`, () => {
      const kind = ruleKind(name);
      const probe = PROBE[name] ?? { fields: [], point: false };
      const required = kind.fields.filter((field) => field.required).map((field) => field.api).sort();
      expect(required).toEqual([...probe.fields].sort());
      expect(kind.point === 'required').toBe(probe.point);
    });
  }

  it('validate refuses each at its file:line:col, and compiles nothing', () => {
    const without = (rule: Record<string, unknown>) => loadPolicyTexts([{ file: 'p.yaml', text: stringify({ version: 1, client: 1, application: 7, rules: [rule] }) }]);
    const vpatch = without({ name: 'r', type: 'vpatch', point: [['get', 'q']] });
    expect(vpatch.desired).toBeUndefined();
    expect(vpatch.diagnostics).toEqual([expect.objectContaining({ file: 'p.yaml', line: 5, col: 5, code: 'missing-key', message: expect.stringContaining('"attack"') as unknown })]);
    const brute = without({ name: 'r', type: 'brute', mode: 'block', threshold: { count: 1, period: 1 }, reaction: { block_by_ip: 600 } });
    expect(brute.desired).toBeUndefined();
    expect(brute.diagnostics).toEqual([expect.objectContaining({ line: 5, col: 5, code: 'missing-key', message: expect.stringContaining('"enumerated_parameters"') as unknown })]);
    expect(ruleKind('ignore_regex').exactlyOne).toEqual(['regex_id', 'regex_rule']);
  });
});
