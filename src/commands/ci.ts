/**
 * `rampart ci comment --file plan.md`: the CI helper the GitHub Action and the
 * GitLab recipe run (docs/ci.md). Hidden from the main help.
 */
import { Option, type Command } from 'commander';
import { describeOutcome, postPlanComment, type Provider } from '../ci/comment.js';
import { EXIT } from '../exit-codes.js';
import { positiveInt } from './options.js';

interface CommentFlags {
  file: string;
  provider?: Provider;
  number?: number;
  author?: string;
}

export function register(program: Command): void {
  const ci = program.command('ci', { hidden: true }).description('helpers for CI pipelines (see docs/ci.md)');
  ci.command('comment')
    .description('create or update, in place, the one plan comment on the current pull request / merge request')
    .requiredOption('--file <file>', 'the markdown plan (rampart plan --format markdown > plan.md)')
    .addOption(new Option('--provider <provider>', 'forge (default: gitlab when GITLAB_CI=true, else github)').choices(['github', 'gitlab']))
    .addOption(new Option('--number <n>', 'pull / merge request number (default: from the CI environment)').argParser(positiveInt))
    .option('--author <login>', "only this author's marked comments count as ours (default: the token's user, else github-actions[bot])")
    .action(async (flags: CommentFlags) => {
      const outcome = await postPlanComment({
        file: flags.file,
        ...(flags.provider ? { provider: flags.provider } : {}),
        ...(flags.number !== undefined ? { number: flags.number } : {}),
        ...(flags.author ? { author: flags.author } : {}),
      });
      process.stdout.write(`${describeOutcome(outcome)}\n`);
      process.exitCode = EXIT.ok;
    });
}
