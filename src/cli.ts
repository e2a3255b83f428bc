#!/usr/bin/env node
/**
 * The process: runs `main` (src/commands/main.ts) on argv and sets the exit code. The
 * only place that does; a command that never settles exits 1 (exit-guard.ts).
 */
import { guardExit } from './exit-guard.js';
import { main } from './commands/main.js';

const finished = main(process.argv).then((code) => {
  process.exitCode = code;
});
guardExit(finished);
