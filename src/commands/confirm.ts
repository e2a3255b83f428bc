/**
 * The one question `apply` and `adopt` ask, on a terminal only, as Terraform
 * does before it writes: the plan is on the screen, and only `yes` goes on.
 * Without a terminal (CI, the daemon, a pipe) nothing is asked.
 */
import { createInterface } from 'node:readline/promises';

export const CONFIRM_QUESTION = "Apply these changes? Only 'yes' is accepted: ";

/** Whether to ask at all: a person is at a terminal, and no flag said yes already. */
export function shouldAsk(input: NodeJS.ReadStream, autoApprove: boolean): boolean {
  return !autoApprove && Boolean(input.isTTY);
}

/** Asks once; true only for `yes`. An input that ends (Ctrl-D) is a no. */
export async function confirmed(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<boolean> {
  const reader = createInterface({ input, output, terminal: false });
  try {
    const answer = await Promise.race([
      reader.question(CONFIRM_QUESTION),
      new Promise<string>((resolve) => reader.once('close', () => resolve(''))),
    ]);
    return answer.trim() === 'yes';
  } finally {
    reader.close();
  }
}
