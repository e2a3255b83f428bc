import { describe, expect, it } from 'vitest';
import { normalizeSubnet } from '../../../src/emulator/ip/subnet.js';

describe('normalizeSubnet', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4/32'],
    ['203.0.113.0/24', '203.0.113.0/24'],
    ['10.16.0.0/12', '10.16.0.0/12'],
    ['::1', '::1/128'],
    ['2001:DB8:0:0::/32', '2001:db8::/32'],
    [' 192.0.2.1 ', '192.0.2.1/32'],
  ])('%s → %s', (input, cidr) => {
    expect(normalizeSubnet(input)).toEqual({ cidr });
  });

  it.each([
    ['10.0.0.0/11', /12/],
    ['2001:db8::/31', /32/],
    ['10.17.0.0/12', /host bits/],
    ['2001:db8::1/64', /host bits/],
    ['1.2.3.4/33', /prefix/],
    ['1.2.3.4/x', /prefix/],
    ['1.2.3', /valid/],
    ['01.2.3.4', /valid/],
    ['fe80::1%eth0', /valid/],
    ['1.2.3.4/24/1', /valid/],
    ['', /valid/],
  ])('refuses %s', (input, message) => {
    const result = normalizeSubnet(input);
    expect('error' in result && result.error).toMatch(message);
  });
});
