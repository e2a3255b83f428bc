import { describe, expect, it } from 'vitest';
import { formatPolicyText } from '../../../src/fmt/canonical.js';

const MESSY = `# yaml-language-server: $schema=../schemas/policy.schema.json
version: 1
client: 10042
application: [9, 3]

ip_lists:
  deny:
    - ips: [198.51.100.7/32, 2001:DB8::0010, 10.0.0.5/8, 203.0.113.0/24]  # scanners
      reason: no
    - countries: [no, de, KP]
    - datacenters: [OVH, hetzner]
    - ips:
        - 192.0.2.10
        - 10.0.0.1 # a host

rules:
  # kept where it is
  - name: x
    type: vpatch
    attack: any
    point: [[header, HOST]]
    when:
      - {point: [path, 0], equal: on}
  - name: a
    type: mode
    mode: block
`;

const CANONICAL = `# yaml-language-server: $schema=../schemas/policy.schema.json
version: 1
client: 10042
application: [3, 9]

ip_lists:
  deny:
    - ips: [10.0.0.0/8, 198.51.100.7, 203.0.113.0/24, 2001:db8::10] # scanners
      reason: "no"
    - countries: [DE, KP, "NO"]
    - datacenters: [hetzner, ovh]
    - ips:
        - 10.0.0.1 # a host
        - 192.0.2.10

rules:
  # kept where it is
  - name: x
    type: vpatch
    attack: any
    point: [[header, HOST]]
    when:
      - { point: [path, 0], equal: "on" }
  - name: a
    type: mode
    mode: block
`;

describe('formatPolicyText', () => {
  it('sorts and canonicalizes IP values, sorts application ids, quotes ambiguous scalars; keeps comments and rule order', () => {
    expect(formatPolicyText(MESSY)).toEqual({ ok: true, text: CANONICAL, changed: true });
  });

  it('is idempotent: the canonical form does not change', () => {
    expect(formatPolicyText(CANONICAL)).toEqual({ ok: true, text: CANONICAL, changed: false });
  });

  it('leaves a value it cannot read as written (validate reports it)', () => {
    const text = 'version: 1\nclient: 1\napplication: 7\nip_lists:\n  deny:\n    - countries: [XX, DE]\n    - ips: [not-an-ip, 1.2.3.4]\n';
    const result = formatPolicyText(text);
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.text).toContain('countries: [DE, XX]');
    expect(result.ok && result.text).toContain('ips: [1.2.3.4, not-an-ip]');
  });

  it('reports a file that does not parse at line:col', () => {
    expect(formatPolicyText('version: 1\nrules: [a, b\n')).toMatchObject({ ok: false, line: expect.any(Number), col: expect.any(Number), message: expect.any(String) });
  });
});
