/** Exit codes, as Terraform's `-detailed-exitcode` users expect them. */
export const EXIT = {
  ok: 0,
  /** Any error: invalid policy, API failure, unsafe plan refused. */
  error: 1,
  /** Only with `plan --detailed-exitcode`: the plan has changes. */
  changes: 2,
} as const;
