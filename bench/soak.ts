/**
 * `npm run soak [-- --minutes N --seed S]`: the fault-injection soak (see
 * bench/soak/run.ts). Default 10 minutes. Prints a summary; exits 1 on any
 * difference between the server and the desired state.
 */
import { parseArgs } from 'node:util';
import { ensureCliBuilt } from './soak/build.js';
import { formatSoakResult, runSoak } from './soak/run.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    seed: { type: 'string' },
    'kill-chance': { type: 'string', default: '0.25' },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!(minutes > 0) || !Number.isInteger(seed)) {
  console.error('usage: npm run soak -- [--minutes N] [--seed S] [--kill-chance P] [--keep] [--quiet] [--json]');
  process.exit(1);
}
const cli = ensureCliBuilt();
console.error(`soak: ${minutes} min, seed ${seed} (replay with --seed ${seed})`);
const result = await runSoak({
  durationMs: minutes * 60_000,
  seed,
  cli,
  killChance: Number(values['kill-chance']),
  keepWorkDir: values.keep,
  log: values.quiet ? undefined : (line) => console.error(line),
});
console.log(values.json ? JSON.stringify(result, null, 2) : formatSoakResult(result));
if (values.keep) console.error(`work directory kept: ${result.workDir}`);
process.exitCode = result.ok ? 0 : 1;
