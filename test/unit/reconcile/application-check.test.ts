/** The applications a policy names exist on its account: refused with file:line and what the account has, warned when unreadable. */
import { describe, expect, it } from 'vitest';
import { UnknownApplicationError } from '../../../src/errors.js';
import type { ClientApplications } from '../../../src/live/applications.js';
import { checkApplications } from '../../../src/reconcile/application-check.js';

const source = (client: number, application: number, line = 3) => ({ client, application, file: 'policies/shop.yaml', line, col: 14 });
const account = (...apps: [number, string][]): ClientApplications => ({ listed: new Map(apps) });

describe('the applications the policies name', () => {
  it('pass when the account has each one', () => {
    const applications = new Map([[10042, account([-1, 'default'], [7, 'shop'])]]);
    expect(checkApplications([source(10042, 7)], applications)).toEqual([]);
  });

  it('refuse one the account does not have, naming the file:line and what it has', () => {
    const applications = new Map([[10042, account([-1, 'default'], [7, 'shop'], [8, 'api'])]]);
    const check = () => checkApplications([source(10042, 7), source(10042, 424242, 5)], applications);
    expect(check).toThrow(UnknownApplicationError);
    expect(check).toThrow(/policies\/shop\.yaml:5:14: application 424242 is not an application of client 10042; it has -1 \(default\), 7 \(shop\), 8 \(api\)/);
    expect(check).toThrow(/1 application\(s\) named in the policies do not exist on their account; nothing is planned/);
  });

  it('warn, once per account, when the token may not list them', () => {
    const applications = new Map<number, ClientApplications>([[10042, { unreadable: 'HTTP 403 Forbidden' }]]);
    expect(checkApplications([source(10042, 7), source(10042, 8)], applications)).toEqual([
      'the applications of client 10042 could not be listed, so the applications the policies name are not checked: HTTP 403 Forbidden',
    ]);
  });

  it('name at most twelve applications, and count the rest', () => {
    const many = account(...Array.from({ length: 20 }, (_, i): [number, string] => [i + 1, `app${i + 1}`]));
    expect(() => checkApplications([source(1, 99)], new Map([[1, many]]))).toThrow(/12 \(app12\) and 8 more/);
  });
});
