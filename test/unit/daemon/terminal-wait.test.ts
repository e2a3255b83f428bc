/**
 * Failures waiting cannot mend stop the retries: after a refused token, a
 * timer tick re-reads the credentials and answers the same failure without an
 * API call; a changed token file or a policy change runs the cycle again.
 * Failures that may pass (a 503) are retried as before.
 */
import { describe, expect, it } from 'vitest';
import { terminalReason, waitOnTerminalFailures } from '../../../src/daemon/terminal-wait.js';
import { ApiAuthError, ApiServerError, ApiTlsError, FileError, UsageError } from '../../../src/errors.js';
import { ReconcileLoop } from '../../../src/daemon/loop.js';
import { silentLogger } from '../../../src/log.js';
import type { CycleContext, CycleOutcome } from '../../../src/reconcile/outcome.js';

const context = (...reasons: string[]): CycleContext => ({ cycleId: 'c', reasons, signal: new AbortController().signal, logger: silentLogger() });

describe('terminal failures', () => {
  it('are a refused token, a forbidden account, an untrusted certificate, a usage error; not a 503', () => {
    expect(terminalReason(new ApiAuthError('401', { tokenRejected: true }))).toBe('the API refused the token');
    expect(terminalReason(new ApiAuthError('403'))).toMatch(/may not act/);
    expect(terminalReason(new ApiTlsError('self-signed'))).toMatch(/certificate/);
    expect(terminalReason(new UsageError('bad flag'))).toMatch(/configuration/);
    expect(terminalReason(new FileError('cannot read the journal file j: EACCES'))).toMatch(/file/);
    expect(terminalReason(new ApiServerError('503'))).toBeUndefined();
  });

  it('a refused token waits for the credentials or the policies to change; then the cycle runs again', async () => {
    const outcomes: CycleOutcome[] = [
      { result: 'failed', error: new ApiAuthError('401 from the API', { tokenRejected: true }) },
      { result: 'failed', error: new ApiAuthError('still 401', { tokenRejected: true }) },
      { result: 'success' },
    ];
    let calls = 0;
    let changed = false;
    const cycle = waitOnTerminalFailures(async () => outcomes[calls++] as CycleOutcome, async () => changed);

    const first = await cycle(context('initial'));
    expect(first).toMatchObject({ result: 'failed', waiting: 'the API refused the token: waiting for a change of the policy files or the credential files' });
    // The same outcome, marked as a recheck: nothing ran, so the loop counts nothing again.
    expect(await cycle(context('retry after failure'))).toEqual({ ...first, recheck: true });
    expect(await cycle(context('resync'))).toEqual({ ...first, recheck: true });
    expect(calls).toBe(1);
    // A policy change is worth a try (the owner or the client may have been the problem).
    expect((await cycle(context('change policies/shop.yaml'))).result).toBe('failed');
    expect(calls).toBe(2);
    changed = true;
    expect((await cycle(context('resync'))).result).toBe('success');
    expect(calls).toBe(3);
  });

  it('a failure that may pass is retried every time', async () => {
    let calls = 0;
    const cycle = waitOnTerminalFailures(async () => {
      calls++;
      return { result: 'failed', error: new ApiServerError('503') };
    }, async () => false);
    for (let i = 0; i < 3; i++) expect((await cycle(context('retry after failure'))).waiting).toBeUndefined();
    expect(calls).toBe(3);
  });

  it('the loop counts a recheck as no cycle: the failure in effect stays, no failure is added', async () => {
    const waiting: CycleOutcome = { result: 'failed', error: new ApiAuthError('401', { tokenRejected: true }), waiting: 'the API refused the token: …' };
    let recheck = false;
    const loop = new ReconcileLoop({ cycle: async () => (recheck ? { ...waiting, recheck: true } : waiting), intervalMs: 60_000 });
    await loop.runOnce(new AbortController().signal);
    expect(loop.consecutiveFailures).toBe(1);
    const inEffect = loop.lastOutcome;
    recheck = true;
    await loop.runOnce(new AbortController().signal);
    await loop.runOnce(new AbortController().signal);
    expect(loop.consecutiveFailures).toBe(1);
    expect(loop.lastOutcome).toBe(inEffect);
  });

  it('the loop does not back off while waiting: its next tick is the resync interval', () => {
    const loop = new ReconcileLoop({ cycle: async () => ({ result: 'success' }), intervalMs: 60_000, jitterRatio: 0, backoff: { baseMs: 10, maxMs: 60_000 } });
    loop.consecutiveFailures = 3;
    expect(loop.nextDelayMs()).toBe(40);
    loop.lastOutcome = { result: 'failed', waiting: 'the API refused the token: …' };
    expect(loop.nextDelayMs()).toBe(60_000);
  });
});
