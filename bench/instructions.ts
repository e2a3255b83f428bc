/**
 * The validate load counted in instructions rather than time: the wall and
 * CPU figures of a shared machine move between batches by as much as a 5%
 * budget, an instruction count much less. Each run is a fresh process under
 * valgrind (`node --predictable --single-threaded`, so the compiler and the
 * collector run on the counted thread) that loads the validate bench's 1,000
 * files once; one more process only imports the loader, and its count is
 * taken off. The collector's decisions still take time into account, so a
 * load can run one mark-compact more than the last: the median of the runs is
 * the figure. Run it with
 *   npm run bench:instructions [-- --runs 5]
 * valgrind must be installed; a run takes about half a minute.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadPolicies } from '../src/policy/index.js';
import { writePolicies } from './validate.js';

const CHILD = '--child';

/** In the counted process: load the directory, or (`import`) only have imported the loader. */
async function child(dir: string, mode: string): Promise<void> {
  if (mode !== 'load') return;
  const result = await loadPolicies(dir);
  if (!result.desired) throw new Error(`the bench files did not validate: ${result.diagnostics[0]?.message ?? 'no result'}`);
}

/** Instructions one process ran, as callgrind counts them. */
function count(dir: string, mode: 'load' | 'import'): number {
  const script = fileURLToPath(import.meta.url);
  const run = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--predictable', '--single-threaded', script, CHILD, dir, mode], { encoding: 'utf8' });
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || !collected) throw new Error(`valgrind ${mode} run failed (exit ${String(run.status)}): ${(run.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`);
  return Number(collected[1]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs wants a whole number, got ${values.runs}`);
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    process.stderr.write('bench:instructions needs valgrind (apt-get install valgrind)\n');
    process.exit(2);
  }
  const dir = await mkdtemp(join(tmpdir(), 'rampart-bench-instructions-'));
  try {
    const files = await writePolicies(dir);
    const imported = count(dir, 'import');
    const loads = Array.from({ length: runs }, () => count(dir, 'load') - imported);
    const sorted = [...loads].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
    const millions = (n: number): string => `${Math.round(n / 1e6).toLocaleString('en-US')}M`;
    console.log(`validate: ${files} policy files loaded in ${millions(median)} instructions (median of ${runs}: ${loads.map(millions).join(', ')})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === CHILD) await child(process.argv[3] ?? '', process.argv[4] ?? '');
  else await main();
}
