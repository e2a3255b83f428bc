/** Value-level checks: addresses, expiries, sources, and the diagnostic formats. */
import { describe, expect, it } from 'vitest';
import { NEVER_EXPIRES } from '../../../src/model/ip.js';
import { checkAddress } from '../../../src/policy/address.js';
import { parseExpiry } from '../../../src/policy/expiry.js';
import { escapeData, escapeProperty, formatDiagnostic, formatGithub, formatJson } from '../../../src/policy/format.js';
import { checkCountry, checkDatacenter, checkProxy } from '../../../src/policy/sources.js';

describe('checkAddress', () => {
  it.each([
    ['198.51.100.7', '198.51.100.7/32', false, false],
    ['203.0.113.0/24', '203.0.113.0/24', false, false],
    ['10.0.0.5/24', '10.0.0.0/24', true, false],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1/128', false, false],
    ['2001:db8::1/48', '2001:db8::/48', true, false],
    // Wider than /20: accepted, but wide (the service's former client refused it).
    ['10.0.0.0/20', '10.0.0.0/20', false, false],
    ['10.0.0.0/19', '10.0.0.0/19', false, true],
    ['10.0.0.0/12', '10.0.0.0/12', false, true],
  ])('%s → %s', (input, cidr, hostBitsSet, wide) => {
    expect(checkAddress(input)).toEqual({ ok: true, cidr, hostBitsSet, wide });
  });
  it.each([
    ['300.1.1.1', 'invalid-cidr'], ['010.0.0.1', 'invalid-cidr'], ['10.1', 'invalid-cidr'], ['fe80::1%eth0', 'invalid-cidr'],
    ['10.0.0.0/33', 'invalid-cidr'], ['example.com', 'invalid-cidr'], ['10.0.0.0/11', 'prefix-too-wide'], ['2001:db8::/31', 'prefix-too-wide'],
  ])('%s → %s', (input, code) => {
    expect(checkAddress(input)).toMatchObject({ ok: false, code });
  });
});

describe('parseExpiry', () => {
  it.each([
    [undefined, NEVER_EXPIRES], ['never', NEVER_EXPIRES], ['2027-01-31', 1801353600], ['2027-01-31T00:00:00Z', 1801353600],
    ['2027-01-31T02:00:00+02:00', 1801353600], ['2027-01-31T00:00:00.999Z', 1801353600], ['2028-02-29', 1835395200],
  ])('%s → %d', (input, seconds) => {
    expect(parseExpiry(input)).toEqual({ ok: true, seconds });
  });
  it.each(['2027-02-29', '2027-13-01', '2027-01-31T25:00:00Z', '31/01/2027', 'tomorrow', '2027-01-31T00:00:00', '3100-01-01'])('rejects %s', (input) => {
    expect(parseExpiry(input).ok).toBe(false);
  });
});

describe('sources', () => {
  it('normalizes case and suggests', () => {
    expect(checkCountry('kp')).toEqual({ ok: true, value: 'KP' });
    expect(checkProxy('tor')).toEqual({ ok: true, value: 'TOR' });
    expect(checkDatacenter('Hetzner')).toEqual({ ok: true, value: 'hetzner' });
    expect(checkDatacenter('google')).toMatchObject({ ok: false, message: expect.stringContaining('did you mean "gce"') });
    expect(checkCountry('ZZ')).toMatchObject({ ok: false, message: expect.stringContaining('ISO-3166') });
  });
});

describe('formats', () => {
  const d = { file: 'p/a,b.yaml', line: 3, col: 7, severity: 'error' as const, code: 'x', message: '50% done:\nnext, line' };
  it('escapes GitHub workflow commands', () => {
    expect(escapeData('a%b\r\nc:d,e')).toBe('a%25b%0D%0Ac:d,e');
    expect(escapeProperty('a%b:c,d\n')).toBe('a%25b%3Ac%2Cd%0A');
    expect(formatGithub({ files: ['p/a,b.yaml'], diagnostics: [d] })).toBe(
      '::error file=p/a%2Cb.yaml,line=3,col=7,title=rampart x::50%25 done:%0Anext, line\n1 policy file: 1 error, 0 warnings\n',
    );
  });
  it('prints text and JSON', () => {
    expect(formatDiagnostic(d)).toBe('p/a,b.yaml:3:7: error: 50% done:\nnext, line [x]');
    expect(formatDiagnostic({ ...d, line: 0, col: 0 })).toMatch(/^p\/a,b\.yaml: error: /);
    expect(JSON.parse(formatJson({ files: [], diagnostics: [{ ...d, severity: 'warning' }] }))).toMatchObject({ valid: true, errors: 0, warnings: 1 });
  });
});
