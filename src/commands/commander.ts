/** The parts of commander the commands use, loaded with `require` (src/commonjs.ts says why). Types: `import type … from 'commander'`. */
import type * as Commander from 'commander';
import { requireCommonJs } from '../commonjs.js';

export const { Command, CommanderError, InvalidArgumentError, Option } = requireCommonJs('commander') as typeof Commander;
