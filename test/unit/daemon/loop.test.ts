import { pino } from 'pino';
import { shownPlan } from '../../helpers/shown-plan.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ReconcileLoop, type ReconcileLoopOptions } from '../../../src/daemon/loop.js';
import { DaemonMetrics } from '../../../src/daemon/metrics.js';
import type { CycleContext, CycleOutcome } from '../../../src/reconcile/outcome.js';
import { eventually } from '../../helpers/eventually.js';
import { ManualScheduler } from '../../helpers/manual-scheduler.js';

/** Lets every callback already due run (the loop's own hand-offs), without waiting on the clock. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface LogLine { msg: string; module?: string; cycle?: string; result?: string; reasons?: string[]; err?: { message: string } }

function captureLogger(): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => { lines.push(JSON.parse(line) as LogLine); } });
  return { logger, lines };
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, open };
}

async function counterValue(metrics: DaemonMetrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  const data = await metric!.get();
  const match = data.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return match?.value ?? 0;
}

const stops: AbortController[] = [];
afterEach(() => { for (const c of stops.splice(0)) c.abort(); });

function start(options: ReconcileLoopOptions): { loop: ReconcileLoop; controller: AbortController; done: Promise<void> } {
  const loop = new ReconcileLoop(options);
  const controller = new AbortController();
  stops.push(controller);
  return { loop, controller, done: loop.run(controller.signal) };
}

describe('ReconcileLoop', () => {
  it('goes idle after each cycle it will wait after, never during one nor after the one a stop ends', async () => {
    const events: string[] = [];
    const third = gate();
    const { loop, controller, done } = start({
      intervalMs: 60_000,
      cycle: async () => {
        events.push(`cycle running=${String(loop.running)}`);
        if (events.length > 4) await third.promise;
        return { result: 'no-op' };
      },
      onIdle: () => events.push(`idle running=${String(loop.running)}`),
    });
    await eventually(() => events.length === 2, 'first idle');
    loop.request('change a.yaml');
    await eventually(() => events.length === 4, 'second idle');
    loop.request('change b.yaml');
    await eventually(() => events.length === 5, 'third cycle');
    controller.abort();
    third.open();
    await done;
    expect(events).toEqual(['cycle running=true', 'idle running=false', 'cycle running=true', 'idle running=false', 'cycle running=true']);
  });

  it('is alive while its first cycle waits for firstCycleAfter; requests made meanwhile join that cycle', async () => {
    const calls: CycleContext[] = [];
    const watcher = gate();
    const loop = new ReconcileLoop({ intervalMs: 60_000, cycle: async (ctx) => { calls.push(ctx); return { result: 'no-op' }; } });
    const controller = new AbortController();
    stops.push(controller);
    const done = loop.run(controller.signal, { firstCycleAfter: watcher.promise });
    await settle();
    expect(loop.alive).toBe(true);
    expect(calls).toEqual([]);
    loop.request('change a.yaml');
    watcher.open();
    await eventually(() => calls.length === 1, 'the first cycle');
    expect(calls[0]!.reasons).toEqual(['initial', 'change a.yaml']);
    controller.abort();
    await done;
  });

  it('stops without a cycle when asked to while its first cycle waits', async () => {
    const calls: CycleContext[] = [];
    const loop = new ReconcileLoop({ intervalMs: 60_000, cycle: async (ctx) => { calls.push(ctx); return { result: 'no-op' }; } });
    const controller = new AbortController();
    const done = loop.run(controller.signal, { firstCycleAfter: new Promise<void>(() => undefined) });
    await settle();
    controller.abort();
    await done;
    expect(calls).toEqual([]);
    expect(loop.alive).toBe(false);
  });

  it('folds requests made during a cycle into exactly one follow-up with all reasons', async () => {
    const calls: CycleContext[] = [];
    const first = gate();
    const scheduler = new ManualScheduler();
    const { loop, controller, done } = start({
      intervalMs: 60_000, jitterRatio: 0, scheduler,
      cycle: async (ctx) => {
        calls.push(ctx);
        if (calls.length === 1) await first.promise;
        return { result: 'no-op' };
      },
    });
    await eventually(() => calls.length === 1, 'first cycle');
    loop.request('change a.yaml');
    loop.request('change b.yaml');
    loop.request('change a.yaml');
    loop.request('link moved');
    first.open();
    await eventually(() => calls.length === 2, 'follow-up cycle');
    // Idle until the resync: no third cycle.
    await eventually(() => scheduler.waiting.length === 1, 'the loop waiting for the resync');
    expect(scheduler.waiting).toEqual([60_000]);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.reasons).toEqual(['initial']);
    expect(calls[1]!.reasons).toEqual(['change a.yaml', 'change b.yaml', 'link moved']);
    expect(calls[0]!.cycleId).not.toBe(calls[1]!.cycleId);
    controller.abort();
    await done;
  });

  it('runs a request made while idle at once', async () => {
    const reasons: string[][] = [];
    const { loop, controller, done } = start({ intervalMs: 60_000, cycle: async (ctx) => { reasons.push(ctx.reasons); return { result: 'success' }; } });
    await eventually(() => reasons.length === 1 && !loop.running, 'initial cycle');
    loop.request('change shop.yaml');
    await eventually(() => reasons.length === 2, 'requested cycle');
    expect(reasons[1]).toEqual(['change shop.yaml']);
    controller.abort();
    await done;
  });

  it('resyncs on the interval', async () => {
    const reasons: string[][] = [];
    const scheduler = new ManualScheduler();
    const { controller, done } = start({ intervalMs: 30_000, jitterRatio: 0, scheduler, cycle: async (ctx) => { reasons.push(ctx.reasons); return { result: 'no-op' }; } });
    for (const cycles of [1, 2, 3]) {
      await eventually(() => reasons.length === cycles && scheduler.waiting.length === 1, `cycle ${cycles}, then a wait`);
      expect(scheduler.waiting).toEqual([30_000]);
      if (cycles < 3) scheduler.advance(30_000);
    }
    controller.abort();
    await done;
    expect(reasons[0]).toEqual(['initial']);
    expect(reasons[1]).toEqual(['resync']);
    expect(reasons[2]).toEqual(['resync']);
  });

  it('backs off exponentially after failures, capped, and resets after a success', () => {
    const loop = new ReconcileLoop({
      intervalMs: 60_000, jitterRatio: 0.1, random: () => 0.5, backoff: { baseMs: 100, maxMs: 1000 },
      cycle: async () => ({ result: 'no-op' }),
    });
    expect(loop.nextDelayMs()).toBe(60_000);
    const delays = [1, 2, 3, 4, 5, 20].map((n) => { loop.consecutiveFailures = n; return loop.nextDelayMs(); });
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);

    const jittery = new ReconcileLoop({ intervalMs: 1000, jitterRatio: 0.1, random: () => 0.999, cycle: async () => ({ result: 'no-op' }) });
    expect(jittery.nextDelayMs()).toBeGreaterThan(1090);
    expect(jittery.nextDelayMs()).toBeLessThanOrEqual(1100);
  });

  it('retries a failed cycle after the backoff, not the interval', async () => {
    const starts: number[] = [];
    const scheduler = new ManualScheduler();
    const { loop, controller, done } = start({
      intervalMs: 60_000, jitterRatio: 0, backoff: { baseMs: 20, maxMs: 60 }, scheduler,
      cycle: async () => { starts.push(scheduler.now()); throw new Error('api down'); },
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      await eventually(() => starts.length === attempt && scheduler.waiting.length === 1, `attempt ${attempt}, then a wait`);
      scheduler.advance(scheduler.waiting[0]!);
    }
    controller.abort();
    await done;
    // Exponential from 20 ms, capped at 60 ms; never the 60 s interval.
    expect(scheduler.requested.slice(0, 4)).toEqual([20, 40, 60, 60]);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps).toEqual([20, 40, 60, 60]);
    expect(loop.consecutiveFailures).toBeGreaterThanOrEqual(5);
  });

  it('lets a request cut a backoff short', async () => {
    const reasons: string[][] = [];
    const { loop, controller, done } = start({
      intervalMs: 60_000, backoff: { baseMs: 30_000, maxMs: 60_000 },
      cycle: async (ctx) => { reasons.push(ctx.reasons); return reasons.length === 1 ? { result: 'failed', error: new Error('boom') } : { result: 'success' }; },
    });
    await eventually(() => reasons.length === 1 && !loop.running, 'failed cycle');
    loop.request('change shop.yaml');
    await eventually(() => reasons.length === 2, 'cycle on request');
    expect(reasons[1]).toEqual(['change shop.yaml']);
    await eventually(() => loop.consecutiveFailures === 0, 'failures reset');
    controller.abort();
    await done;
  });

  it('records a thrown error as a failed outcome: state, metrics and one log line', async () => {
    const { logger, lines } = captureLogger();
    const metrics = new DaemonMetrics({ processMetrics: false });
    const error = new Error('listing failed');
    const { loop, controller, done } = start({ intervalMs: 60_000, logger, metrics, cycle: async () => { throw error; } });
    await eventually(() => loop.lastOutcome !== undefined, 'an outcome');
    controller.abort();
    await done;
    expect(loop.lastOutcome).toEqual({ result: 'failed', error });
    expect(loop.everSucceeded).toBe(false);
    expect(await counterValue(metrics, 'rampart_reconcile_total', { result: 'failed' })).toBe(1);
    const finished = lines.filter((l) => l.msg === 'cycle finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ module: 'loop', cycle: loop.lastCycleId, result: 'failed', err: { message: 'listing failed' } });
  });

  it('ends every cycle in exactly one recorded outcome, whatever the cycle does', async () => {
    const { logger, lines } = captureLogger();
    const metrics = new DaemonMetrics({ processMetrics: false });
    const script: Array<() => Promise<CycleOutcome>> = [
      async () => ({ result: 'success', changes: { create: 2, delete: 1 }, plan: shownPlan({ summary: 1 }) }),
      async () => ({ result: 'invalid', error: new Error('shop.yaml:3:1: bad') }),
      async () => { throw new Error('boom'); },
      async () => 'junk' as unknown as CycleOutcome,
      async () => ({ result: 'unsafe', changes: { create: 0, delete: 40 }, plan: shownPlan({ summary: 2 }) }),
      async () => ({ result: 'no-op' }),
    ];
    let n = 0;
    const { loop, controller, done } = start({
      intervalMs: 5, jitterRatio: 0, backoff: { baseMs: 5, maxMs: 5 }, logger, metrics,
      cycle: async (ctx) => {
        ctx.logger.info('working');
        const step = script[n++];
        if (!step) { controller.abort(); return { result: 'no-op' }; }
        return step();
      },
    });
    await done;
    const started = lines.filter((l) => l.msg === 'cycle started');
    const finished = lines.filter((l) => l.msg === 'cycle finished');
    expect(started.length).toBe(script.length + 1);
    expect(finished.map((l) => l.cycle)).toEqual(started.map((l) => l.cycle));
    expect(new Set(finished.map((l) => l.cycle)).size).toBe(finished.length);
    expect(finished.map((l) => l.result)).toEqual(['success', 'invalid', 'failed', 'failed', 'unsafe', 'no-op', 'no-op']);
    // The cycle's own lines carry the loop's bindings.
    const working = lines.filter((l) => l.msg === 'working');
    expect(working.map((l) => l.cycle)).toEqual(started.map((l) => l.cycle));
    expect(working.every((l) => l.module === 'loop')).toBe(true);

    let total = 0;
    for (const result of ['success', 'invalid', 'failed', 'unsafe', 'no-op']) total += await counterValue(metrics, 'rampart_reconcile_total', { result });
    expect(total).toBe(finished.length);
    expect(loop.lastPlan?.body).toEqual({ summary: 2 });
    expect(loop.everSucceeded).toBe(true);
    expect(await counterValue(metrics, 'rampart_policy_valid', {})).toBe(1);
    expect(await counterValue(metrics, 'rampart_cycle_in_progress', {})).toBe(0);
  });

  it('an unsafe plan made while the files are invalid leaves rampart_policy_valid at 0', async () => {
    // The daemon plans from the last good policies when the files turn invalid; that plan can be unsafe.
    const metrics = new DaemonMetrics();
    const loop = new ReconcileLoop({
      intervalMs: 60_000,
      metrics,
      cycle: async (): Promise<CycleOutcome> => ({ result: 'unsafe', error: new Error('refusing'), policyValid: false }),
    });
    await loop.runOnce(new AbortController().signal);
    expect(await counterValue(metrics, 'rampart_policy_valid', {})).toBe(0);
  });

  it('on abort, waits for the running cycle, which sees the signal, then resolves', async () => {
    const release = gate();
    let sawAbort: boolean | undefined;
    const { loop, controller, done } = start({
      intervalMs: 60_000,
      cycle: async (ctx) => { await release.promise; sawAbort = ctx.signal.aborted; return { result: 'success' }; },
    });
    await eventually(() => loop.running, 'cycle running');
    loop.request('change during shutdown');
    controller.abort();
    let resolved = false;
    void done.then(() => { resolved = true; });
    await settle();
    expect(resolved).toBe(false);
    expect(loop.alive).toBe(true);
    release.open();
    await done;
    expect(sawAbort).toBe(true);
    expect(loop.alive).toBe(false);
    expect(loop.lastOutcome?.result).toBe('success');
    loop.request('after stop');
    await settle();
    expect(loop.running).toBe(false);
  });

  it('resolves at once on a hard stop, and still records the cycle when it ends', async () => {
    const release = gate();
    const loop = new ReconcileLoop({ intervalMs: 60_000, cycle: async () => { await release.promise; return { result: 'no-op' }; } });
    const graceful = new AbortController();
    const hard = new AbortController();
    const done = loop.run(graceful.signal, { hardStop: hard.signal });
    await eventually(() => loop.running, 'cycle running');
    graceful.abort();
    hard.abort();
    await done;
    expect(loop.alive).toBe(false);
    expect(loop.lastOutcome).toBeUndefined();
    release.open();
    await eventually(() => loop.lastOutcome?.result === 'no-op', 'late outcome recorded');
  });

  it('runs a single recorded cycle with runOnce', async () => {
    const metrics = new DaemonMetrics({ processMetrics: false });
    const loop = new ReconcileLoop({ intervalMs: 1000, metrics, cycle: async (ctx) => ({ result: 'success', plan: shownPlan(ctx.reasons) }) });
    const outcome = await loop.runOnce(new AbortController().signal);
    expect(outcome.result).toBe('success');
    expect(loop.lastPlan?.body).toEqual(['once']);
    expect(await counterValue(metrics, 'rampart_reconcile_total', { result: 'success' })).toBe(1);
  });
});

describe('rampart_plan_pending_changes', () => {
  it('follows every cycle outcome, not only the ones that planned', async () => {
    const metrics = new DaemonMetrics({ processMetrics: false });
    const outcomes: CycleOutcome[] = [
      { result: 'skipped', changes: { create: 3, delete: 1 } },
      { result: 'failed', error: new Error('API down before any plan') },
      { result: 'skipped' },
      { result: 'unsafe', changes: { create: 0, delete: 9 } },
      { result: 'invalid', error: new Error('bad file, nothing planned') },
      { result: 'invalid', changes: { create: 2, delete: 0 }, pending: { create: 2, delete: 0 } },
      { result: 'invalid', changes: { create: 2, delete: 0 } },
    ];
    const expected = [[3, 1], [3, 1], [0, 0], [0, 9], [0, 0], [2, 0], [0, 0]];
    let next = 0;
    const loop = new ReconcileLoop({ intervalMs: 1000, metrics, cycle: async () => outcomes[next++]! });
    for (const [create, del] of expected) {
      await loop.runOnce(new AbortController().signal);
      expect([
        await counterValue(metrics, 'rampart_plan_pending_changes', { action: 'create' }),
        await counterValue(metrics, 'rampart_plan_pending_changes', { action: 'delete' }),
      ], `after cycle ${next}: ${outcomes[next - 1]!.result}`).toEqual([create, del]);
    }
  });
});
