/** An IP delete the service answers with nothing deleted is reported as already gone, never as a delete. */
import { describe, expect, it } from 'vitest';
import { deleteIp } from '../../../src/apply/classes/ip-calls.js';
import type { ExecuteContext } from '../../../src/apply/execute.js';

const context = (answer: unknown) => ({ api: { ipApi: 'v4', deleteIpRules: () => Promise.resolve(answer) } }) as unknown as ExecuteContext;

describe('the answer of an IP delete', () => {
  it.each([
    [{ deleted: 0 }, 'already-done'], [undefined, 'already-done'], [null, 'already-done'], [[], 'already-done'],
    [{ deleted: 2 }, 'applied'], [{ something: 'else' }, 'applied'],
  ])('%j → %s', async (answer, status) => {
    expect((await deleteIp(7, 'black', [{ id: 1, ruleType: 'ip_range' }, { id: 2, ruleType: 'ip_range' }], context(answer))).status).toBe(status);
  });
});
