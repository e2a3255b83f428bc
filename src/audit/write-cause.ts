/** Why a write was needed (cause.ts tells it, from the owner mark and the converged memory). */
export type WriteCause = 'intent' | 'drift' | 'unknown';

export const WRITE_CAUSES: readonly WriteCause[] = ['intent', 'drift', 'unknown'];
