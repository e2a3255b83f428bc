/**
 * Failures that waiting cannot mend (a refused token, a certificate the
 * daemon does not trust, a usage error, a file it cannot read or write): backing off and trying again only
 * repeats them. Like controller-runtime's terminal errors, such a cycle stops
 * the retries: the daemon then waits for something that can mend it, a change
 * of the policy files or of the credential files. Each timer tick re-reads the
 * credential files (cheap, no API call); the next cycle runs as soon as they or
 * the policies change.
 */
import { ApiAuthError, ApiTlsError, FileError, UsageError } from '../errors.js';
import type { Cycle, CycleOutcome } from '../reconcile/outcome.js';

/** Why waiting will not help, or undefined when it may. */
export function terminalReason(error: unknown): string | undefined {
  if (error instanceof ApiAuthError) {
    return error.tokenRejected ? 'the API refused the token' : 'the token may not act on an account the policies name';
  }
  if (error instanceof ApiTlsError) return 'the API\'s certificate is not trusted here';
  if (error instanceof UsageError) return 'the configuration is wrong';
  if (error instanceof FileError) return 'a file it needs cannot be read or written';
  return undefined;
}

/** The reasons a timer gives a cycle; any other reason is an event (a policy file changed, a pause). */
const TIMER_REASONS: ReadonlySet<string> = new Set(['resync', 'retry after failure']);

/**
 * `cycle`, except after a terminal failure: then a cycle asked for by the
 * timer alone, with the credential files unchanged (`credentialsChanged`),
 * answers the same failure again without calling the API.
 */
export function waitOnTerminalFailures(cycle: Cycle, credentialsChanged: () => Promise<boolean>): Cycle {
  let stuck: CycleOutcome | undefined;
  return async (context) => {
    const changed = await credentialsChanged();
    const onlyTimer = context.reasons.every((reason) => TIMER_REASONS.has(reason));
    if (stuck && onlyTimer && !changed) {
      context.logger.info({ waiting: stuck.waiting }, 'still waiting for the policies or the credentials to change; the API is not called');
      return { ...stuck, recheck: true };
    }
    const outcome = await cycle(context);
    const reason = outcome.result === 'failed' ? terminalReason(outcome.error) : undefined;
    stuck = reason ? { ...outcome, waiting: `${reason}: waiting for a change of the policy files or the credential files` } : undefined;
    return stuck ?? outcome;
  };
}
