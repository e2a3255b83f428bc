/**
 * `--target FILE|NAME` (plan and apply, repeatable): plan only the
 * declarations of those policy files or of rules so named, and delete nothing
 * outside them (plan/target.ts). A value names a policy file when one of the
 * files read is that path (as given, or under the policy directory);
 * otherwise a rule's `name`; one that names neither is an error, so a typo
 * never plans nothing in silence.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { Targets } from '../plan/target.js';
import type { LoadedPolicies } from '../reconcile/prepare.js';
import { didYouMean } from '../grammar/suggest.js';

export interface TargetFlags {
  target?: string[];
}

export function addTargetOption(command: Command): Command {
  return command.option(
    '--target <file|name>',
    'plan only the declarations of this policy file, or the rules of this name, and delete nothing outside them (repeatable)',
    (value: string, previous: string[] = []) => [...previous, value],
  );
}

export function targetsFrom(values: readonly string[] | undefined, policy: Pick<LoadedPolicies, 'files' | 'desired'>, policies: string): Targets | undefined {
  if (!values || values.length === 0) return undefined;
  const files: string[] = [];
  const names: string[] = [];
  const declaredNames = new Set(policy.desired.rules.map((rule) => rule.source.name));
  for (const value of values) {
    const file = policy.files.find((f) => resolve(f) === resolve(value) || resolve(f) === resolve(policies, value));
    if (file !== undefined) files.push(file);
    else if (declaredNames.has(value)) names.push(value);
    else {
      throw new UsageError(`--target ${value} names no policy file and no rule of the policies${didYouMean(value, [...policy.files, ...declaredNames])}`);
    }
  }
  return { files, names };
}
