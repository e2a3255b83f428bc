/**
 * `rampart ci comment`: the CI helper the GitHub Action and the GitLab recipe
 * run (docs/ci.md). Listed in the main help, as a pipeline author copying a
 * recipe looks there first.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import { commentText, describeOutcome, postPlanComment, type CommentOptions, type Provider } from '../ci/comment.js';
import { EXIT } from '../exit-codes.js';
import { wholeNumber } from './options.js';

interface CommentFlags {
  file?: string;
  plan?: string;
  failed?: string;
  errors?: string;
  provider?: Provider;
  number?: number;
  author?: string;
  commit?: string;
  runUrl?: string;
  apiUrl?: string;
  print?: boolean;
}

export function register(program: Command): void {
  const ci = program.command('ci').description('helpers for CI pipelines: `ci comment` posts the plan on the pull request (see docs/ci.md)');
  ci.command('comment')
    .description('create or update, in place, the one plan comment on the current pull request / merge request')
    .option('--plan <file>', 'the saved plan (rampart plan --out FILE): the comment shows exactly what apply --plan applies')
    .option('--failed <step>', 'the step that failed (validate, plan, ...): the comment says so, with --errors')
    .option('--errors <file>', "what the failed step printed (its diagnostics or the API error)")
    .option('--file <file>', 'markdown made elsewhere (rampart show plan.json --format markdown > plan.md)')
    .option('--commit <sha>', 'commit in the header (default: the pull request head, CI_COMMIT_SHA on GitLab)')
    .option('--run-url <url>', 'CI run linked from the header (default: from the CI environment)')
    .option('--api-url <url>', 'API named in the header (default: RAMPART_API_URL)')
    .option('--print', 'print the comment instead of posting it')
    .addOption(new Option('--provider <provider>', 'forge (default: gitlab when GITLAB_CI=true, else github)').choices(['github', 'gitlab']))
    .addOption(new Option('--number <n>', 'pull / merge request number (default: from the CI environment)').argParser(wholeNumber('--number', { min: 1 })))
    .option('--author <login>', "only this author's marked comments count as ours (default: the token's user, else github-actions[bot])")
    .action(async (flags: CommentFlags) => {
      const options: CommentOptions = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
      if (flags.print) process.stdout.write(await commentText(options));
      else process.stdout.write(`${describeOutcome(await postPlanComment(options))}\n`);
      process.exitCode = EXIT.ok;
    });
}
