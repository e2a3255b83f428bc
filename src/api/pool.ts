/**
 * undici's connection pool alone (lean-require.ts): `Pool` and the request
 * methods undici's entry point gives every dispatcher, without the rest of
 * the package.
 */
import type * as Undici from 'undici';
import { requireLean } from '../lean-require.js';

export const Pool: typeof Undici.Pool = requireLean(
  'undici',
  (load) => {
    // What undici's index.js does before it exports anything: `request` and the other calls on every dispatcher.
    const dispatcher = load('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(dispatcher.prototype, load('undici/lib/api/index.js'));
    return load('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
  },
  (load) => (load('undici') as typeof Undici).Pool,
);

export type Pool = Undici.Pool;
