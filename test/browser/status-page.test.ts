/// <reference lib="dom" />
/**
 * The daemon's status page in a real browser: Debian's Chromium, driven by
 * playwright-core (no browser download). Skipped, saying how to install it,
 * where Chromium is missing; `.ci/run` installs it so CI always runs these.
 * Screenshots go to test-artifacts/ (git-ignored).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupDaemons } from '../helpers/daemon.js';
import { startInProcessDaemon, type InProcessDaemon } from '../helpers/daemon-in-process.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { samplePolicyDir, type PolicyDir } from '../helpers/policies.js';

const CHROMIUM = process.env.RAMPART_CHROMIUM ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stderr.write(`status page browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set RAMPART_CHROMIUM)\n`);
const ARTIFACTS = join(process.cwd(), 'test-artifacts');
const HOSTILE = '<img src=x onerror="window.__pwned=1"></details>`whoami`';

let browser: Browser;
let emulator: TestEmulator;
let policies: PolicyDir;
let page: Page;

describe.skipIf(!available)('the status page in Chromium', () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => browser?.close());
  afterEach(async () => {
    await page?.close();
    await cleanupDaemons();
    await emulator?.close();
    await policies?.cleanup();
  });

  /** The page, refreshing itself every `every` seconds (a test that measures the layout keeps it still). */
  async function open(daemon: InProcessDaemon, every = 1, viewport = { width: 1200, height: 1400 }): Promise<Page> {
    page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${daemon.url}/?every=${every}`);
    expect(errors).toEqual([]);
    return page;
  }

  async function start(options: { adminTokenFile?: string } = {}): Promise<InProcessDaemon> {
    emulator = await startTestEmulator();
    policies = await samplePolicyDir();
    return startInProcessDaemon({ apiUrl: emulator.url, policies: policies.dir, settleTimeoutMs: 5000, ...options });
  }

  it('shows the state, the pending plan after an edit, then the applied cycle, refreshing itself', async () => {
    const daemon = await start();
    await daemon.waitForCycle((line) => line.result === 'success', 'the first cycle');
    const view = await open(daemon);
    await expect(view.getByTestId('status').textContent()).resolves.toBe('ready');
    await expect(view.getByTestId('writes').textContent()).resolves.toContain('curltool-scanner');
    // The stylesheet arrives as CSS: its font rule holds (escaped, the page fell back to Times).
    expect(await view.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/Segoe UI|Helvetica|Arial/);
    await view.screenshot({ path: join(ARTIFACTS, 'status-ready.png'), fullPage: true });

    // Written while the daemon holds writes: the page shows the plan pending, then the applied cycle.
    await policies.write('.rampart-pause', 'review the new mode first');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'paused', 'a paused cycle', { after: 1 });
    await policies.edit('shop.yaml', 'mode: monitoring', 'mode: block');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'paused', 'the edit planned', { after: 2 });
    await view.waitForFunction(() => document.querySelector('[data-testid="plan"]')?.textContent?.includes('monitoring → block'), undefined, { timeout: 10_000 });
    await expect(view.getByTestId('status').textContent()).resolves.toBe('paused');
    await view.screenshot({ path: join(ARTIFACTS, 'status-pending.png'), fullPage: true });

    await policies.remove('.rampart-pause');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'success', 'the edit applied', { after: 3 });
    await view.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === 'ready', undefined, { timeout: 10_000 });
    await expect(view.getByTestId('writes').textContent()).resolves.toMatch(/update\s*rule\s*mode/);
  });

  it('lists every policy error and marks every kind of cycle; the screenshot holds the page\'s structure', async () => {
    const daemon = await start();
    await daemon.waitForCycle((line) => line.result === 'success', 'the first cycle');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'no-op', 'a quiet cycle', { after: 1 });
    // Two files broken at once: the page names both errors, not the first alone.
    await policies.edit('shop.yaml', 'mode: monitoring', 'mode: sometimes');
    await policies.edit('api.yaml', 'mode: block', 'mode: always');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'invalid', 'the invalid files', { after: 2 });
    // Measured as it stands: a refresh mid-way would replace the elements being measured.
    const view = await open(daemon, 60);
    const problems = await view.getByTestId('problems').textContent();
    expect(problems).toMatch(/2 policy errors/);
    expect(problems).toMatch(/shop\.yaml:\d+:\d+/);
    expect(problems).toMatch(/api\.yaml:\d+:\d+/);
    // The chart: axes labelled, and each cycle drawn whatever it was.
    const marks = await view.locator('[data-testid="chart"] [data-result]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-result')));
    // The watcher may run a cycle of its own on the edits: every one after the quiet cycle found the files invalid.
    expect(marks.slice(0, 2)).toEqual(['success', 'no-op']);
    expect(new Set(marks.slice(2))).toEqual(new Set(['invalid']));
    await expect(view.getByTestId('chart-max').textContent()).resolves.toMatch(/^\d+$/);
    await expect(view.getByTestId('chart-to').textContent()).resolves.toMatch(/^\d\d:\d\d UTC$/);

    // The screenshot against the structure the page must have: the summary on top, then the plan,
    // the chart, the cycles, the writes and the API health, each visible, in that order, none empty.
    const shot = await view.screenshot({ path: join(ARTIFACTS, 'status-invalid.png'), fullPage: true });
    expect(shot.byteLength).toBeGreaterThan(20_000);
    const boxes = await view.evaluate(() => Array.from(document.querySelectorAll('main section, section')).map((section) => {
      const box = section.getBoundingClientRect();
      return { heading: section.querySelector('h2')?.textContent ?? 'summary', top: box.top, height: box.height, width: box.width };
    }));
    const headings = boxes.map((b) => b.heading);
    expect(headings[0]).toBe('summary');
    expect(headings.slice(2)).toEqual(['Changes and drift repairs per cycle', 'Last cycles', 'Recent writes', 'API health', 'Pause']);
    for (let i = 1; i < boxes.length; i++) expect((boxes[i] as { top: number }).top).toBeGreaterThan((boxes[i - 1] as { top: number }).top);
    for (const box of boxes) expect(box.height, box.heading).toBeGreaterThan(20);
    const chart = await view.getByTestId('chart').boundingBox();
    expect(chart?.width).toBeGreaterThan(600);
    if (chart) await view.screenshot({ path: join(ARTIFACTS, 'status-chart.png'), clip: chart });
  });

  it('fits a phone (360 px wide): nothing scrolls sideways but the plan and the tables inside their own boxes', async () => {
    const tokenFile = join(ARTIFACTS, `admin-phone-${process.pid}`);
    await writeFile(tokenFile, 'page-admin-token\n');
    const daemon = await start({ adminTokenFile: tokenFile });
    await daemon.waitForCycle((line) => line.result === 'success', 'the first cycle');
    // A pending plan, the writes, the chart and the pause form all on the page at once.
    await policies.write('.rampart-pause', 'review the new mode first');
    await policies.edit('shop.yaml', 'mode: monitoring', 'mode: block');
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'paused', 'the edit planned', { after: 1 });
    const view = await open(daemon, 60, { width: 360, height: 800 });
    await expect(view.getByTestId('plan').textContent()).resolves.toContain('monitoring → block');
    const wide = await view.evaluate(() => Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
        && !element.closest('pre, .scroll'))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`));
    expect(wide).toEqual([]);
    expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await view.screenshot({ path: join(ARTIFACTS, 'status-phone.png'), fullPage: true });
  });

  it('renders a hostile comment as text: no script runs, no markup is made', async () => {
    const daemon = await start();
    await daemon.waitForCycle((line) => line.result === 'success', 'the first cycle');
    await policies.edit('shop.yaml', 'comment: flags a known scanner', `comment: ${JSON.stringify(HOSTILE)}`);
    await policies.write('.rampart-pause', HOSTILE);
    daemon.resync();
    await daemon.waitForCycle((line) => line.result === 'paused', 'the hostile plan', { after: 1 });
    const view = await open(daemon);
    expect(await view.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await view.locator('img').count()).toBe(0);
    // The text plan shows the comment quoted (its quotes escaped); every dangerous part is there, as text.
    const plan = await view.getByTestId('plan').textContent();
    for (const part of ['<img src=x onerror=', '</details>`whoami`']) expect(plan).toContain(part);
    await expect(view.getByTestId('reason').textContent()).resolves.toContain(HOSTILE);
    await view.screenshot({ path: join(ARTIFACTS, 'status-hostile.png'), fullPage: true });
  });

  it('pauses and resumes with the admin token, refuses without it; read-only without an admin token', async () => {
    const tokenFile = join(process.cwd(), 'test-artifacts', `admin-${process.pid}`);
    await writeFile(tokenFile, 'page-admin-token\n');
    const daemon = await start({ adminTokenFile: tokenFile });
    await daemon.waitForCycle((line) => line.result === 'success', 'the first cycle');
    const view = await open(daemon);
    await view.fill('#token', 'wrong');
    await view.click('#pause');
    await view.waitForFunction(() => /Refused \(401\)/.test(document.querySelector('#pause-result')?.textContent ?? ''), undefined, { timeout: 5000 });
    await view.fill('#token', 'page-admin-token');
    await view.fill('#reason', 'from the page');
    await view.click('#pause');
    await view.waitForFunction(() => document.querySelector('#pause-result')?.textContent === 'Paused.', undefined, { timeout: 5000 });
    await daemon.waitForCycle((line) => line.result === 'paused', 'the paused cycle', { after: 1 });
    await view.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === 'paused', undefined, { timeout: 10_000 });
    await view.click('#resume');
    await view.waitForFunction(() => document.querySelector('#pause-result')?.textContent === 'Resumed.', undefined, { timeout: 5000 });
    expect(await view.content()).not.toContain('page-admin-token');
    await page.close();

    const plain = await startInProcessDaemon({ apiUrl: emulator.url, policies: policies.dir, settleTimeoutMs: 5000 });
    await plain.waitForCycle(() => true, 'its first cycle');
    const readOnly = await open(plain);
    await expect(readOnly.getByTestId('read-only').textContent()).resolves.toContain('Read-only');
    expect(await readOnly.locator('#pause').count()).toBe(0);
  });
});
