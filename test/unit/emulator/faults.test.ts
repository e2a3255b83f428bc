import { describe, expect, it } from 'vitest';
import { FaultScript, faultProblem } from '../../../src/emulator/faults.js';

describe('FaultScript', () => {
  it('hits the next N matching calls in the order added, then stops', () => {
    const script = new FaultScript();
    script.add({ route: 'POST /a', kind: 'status', status: 503, count: 2 });
    script.add({ route: '*', kind: 'reset' });
    expect(script.take('GET /b')?.kind).toBe('reset');
    expect(script.take('POST /a')?.status).toBe(503);
    expect(script.list()).toEqual([{ route: 'POST /a', kind: 'status', status: 503, count: 1 }]);
    expect(script.take('POST /a')?.status).toBe(503);
    expect(script.take('POST /a')).toBeUndefined();
  });

  it('clear drops every fault', () => {
    const script = new FaultScript();
    script.add({ route: '*', kind: 'hang', count: 5 });
    script.clear();
    expect(script.take('GET /x')).toBeUndefined();
  });

  it('names what is wrong with a fault', () => {
    expect(faultProblem({ route: '', kind: 'reset' })).toMatch(/route/);
    expect(faultProblem({ route: '*', kind: 'status', status: 200 })).toMatch(/status/);
    expect(faultProblem({ route: '*', kind: 'status', status: 429, retryAfterSeconds: -1 })).toMatch(/retryAfter/);
    expect(faultProblem({ route: '*', kind: 'reset-after-write', count: 3 })).toBeUndefined();
    expect(faultProblem(null)).toMatch(/object/);
    expect(faultProblem({ route: '*', kind: 'delete-after-list' })).toMatch(/listing route/);
    expect(faultProblem({ route: 'POST /v1/objects/hint/create', kind: 'delete-after-list' })).toMatch(/listing route/);
    expect(faultProblem({ route: 'GET /v4/ip_rules', kind: 'delete-after-list' })).toBeUndefined();
    expect(faultProblem({ route: 'POST /v1/objects/hint', kind: 'delete-after-list', count: 2 })).toBeUndefined();
  });
});
