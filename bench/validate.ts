/**
 * Benchmark (not a test): 1,000 generated policy files → load + validate +
 * normalize. Target: well under 2 s. Run it with
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/validate.js
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectGarbage } from '../src/garbage-collector.js';
import { loadPolicies } from '../src/policy/index.js';

const FILES = 1000;

export function policyText(i: number): string {
  const app = i + 1;
  return `# yaml-language-server: $schema=../schemas/policy.schema.json
version: 1
client: ${10000 + (i % 10)}
application: ${app}
description: generated policy ${i}
mode: monitoring
rules:
  - name: legacy-admin
    type: vpatch
    attack: any
    point: [[header, HOST]]
    when:
      - url: /admin/**
      - { point: [method], equal: POST }
  - name: scanner
    type: regex
    regex: "(?i).*scanner-${i}.*"
    attack: scanner
    point: [[header, USER-AGENT]]
    comment: generated
  - name: api-block
    type: mode
    mode: block
    when:
      - { point: [uri], regex: "^/api/v[0-9]+/" }
ip_lists:
  deny:
    - ips: [10.${i % 250}.${Math.floor(i / 250)}.0/24, 198.51.${i % 250}.7, "2001:db8:${i.toString(16)}::/48"]
      reason: generated
      expires: 2059-01-01
    - countries: [KP, IR]
    - proxies: [TOR]
  allow:
    - ips: [192.0.2.${i % 250}]
  gray:
    - datacenters: [hetzner, ovh]
`;
}

/** The bench's 1,000 policy files, in 20 team folders under `dir`. */
export async function writePolicies(dir: string): Promise<number> {
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `team-${i % 20}`);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `app-${i}.yaml`), policyText(i));
  }
  return FILES;
}

export interface ValidateFigures {
  readonly files: number;
  /** Wall time of the load. */
  readonly ms: number;
  /** The process CPU time spent, which a busy machine disturbs less. */
  readonly cpuMs: number;
  /** Heap still held by the loaded result after a full collection: what a daemon keeps between cycles. */
  readonly heldMb: number;
  /** The heap's high-water mark during the load (sampled), above the heap before it. */
  readonly peakHeapMb: number;
}

export async function benchValidate(): Promise<ValidateFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-validate-'));
  try {
    await writePolicies(dir);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await loadPolicies(dir);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    collectGarbage();
    const held = process.memoryUsage().heapUsed - heapBefore;
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0 || !result.desired) {
      throw new Error(`generated policies are invalid: ${JSON.stringify(errors.slice(0, 3))}`);
    }
    const mb = (bytes: number): number => bytes / 2 ** 20;
    return { files: result.files.length, ms, cpuMs: (used.user + used.system) / 1000, heldMb: mb(held), peakHeapMb: mb(peak - heapBefore) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { files, ms, cpuMs, heldMb, peakHeapMb } = await benchValidate();
  console.log(`validate: ${files} policy files loaded, validated and normalized in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms CPU); heap held ${heldMb.toFixed(1)} MB, peak +${peakHeapMb.toFixed(1)} MB`);
}
