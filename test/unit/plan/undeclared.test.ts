/**
 * The owned objects a plan deletes only because these policies do not
 * declare them: counted as the summary counts objects, with the files that
 * last declared them where the export record knows, the rule names the marks
 * keep, and said before the changes in every output.
 */
import { describe, expect, it } from 'vitest';
import { buildPlan, encodePlan, encodePlanBody, renderGithub, renderMarkdown, renderText, targetPlan } from '../../../src/plan/index.js';
import { planDocument } from '../../helpers/plan-document.js';
import { desiredRule, desiredState, liveObject, liveRule, liveState, ruleFields } from './builders.js';

const declared = desiredRule(ruleFields('vpatch'), 'kept-rule', 5, 'policies/scratch.yaml');
const owned = [
  { ...liveRule(ruleFields('vpatch'), 11), name: 'kept-rule' },
  { ...liveRule(ruleFields('regex'), 12), name: 'scanner' },
  { ...liveRule(ruleFields('mode'), 13), name: 'admin-blocking' },
];
const ips = liveObject(40, ['203.0.113.7', '198.51.100.0/24']);
const desired = desiredState([declared]);
const live = liveState(owned, ips);

describe('undeclared objects', () => {
  it('counts each owned object and IP value no policy here declares, and names the rules, when nothing records their files', () => {
    expect(planDocument(desired, live).undeclared).toEqual({ count: 4, files: [], files_unknown: 4, names: ['admin-blocking', 'scanner'] });
  });

  it('names the files the export record says declared them, and counts the rest as unknown', () => {
    const exported = [
      { kind: 'rule' as const, client: 10042, id: 12, file: 'policies/old.yaml' },
      { kind: 'ip' as const, client: 10042, id: 40, value: '203.0.113.7', file: 'policies/deny.yaml' },
      // Still declared: not one of them.
      { kind: 'rule' as const, client: 10042, id: 11, file: 'policies/other.yaml' },
    ];
    expect(planDocument(desired, live, { exported }).undeclared).toEqual({
      count: 4, files: ['policies/deny.yaml', 'policies/old.yaml'], files_unknown: 2, names: ['admin-blocking', 'scanner'],
    });
  });

  it('is left out when nothing undeclared is deleted, and when --target keeps the deletes out', () => {
    expect(planDocument(desiredState([declared]), liveState([owned[0]!])).undeclared).toBeUndefined();
    const targeted = targetPlan(buildPlan(desired, live), { files: ['policies/scratch.yaml'], names: [] }).plan;
    expect(encodePlan(targeted).undeclared).toBeUndefined();
  });

  it('is said before the changes in text, markdown and GitHub output, with the owner and the ways out', () => {
    const exported = [{ kind: 'rule' as const, client: 10042, id: 12, file: 'policies/old.yaml' }];
    const plan = buildPlan(desired, live, { exported });
    const line = '4 objects owned by rampart are not declared in these policies and would be deleted (last declared in: policies/old.yaml; '
      + 'not recorded for 3 of them; rule names: admin-blocking, scanner). If another directory declares them, plan only these files with '
      + '--target FILE, or give these policies an owner of their own with --owner NAME.';
    const text = renderText(encodePlanBody(plan));
    expect(text.indexOf(line)).toBe(0);
    expect(text.indexOf(line)).toBeLessThan(text.indexOf('Client 10042'));
    const markdown = renderMarkdown(encodePlan(plan));
    expect(markdown).toContain(`> [!WARNING]\n> ${line}`);
    expect(markdown.indexOf(line)).toBeLessThan(markdown.indexOf('This plan deletes'));
    expect(renderGithub(encodePlan(plan)).annotations.split('\n')[0]).toBe(`::warning title=Rampart%3A not declared here::${line}`);
  });

  it('says when no record knows any file, and counts one object in the singular', () => {
    const text = renderText(encodePlanBody(buildPlan(desiredState([declared]), liveState(owned.slice(0, 2)))));
    expect(text.split('\n')[0]).toBe('1 object owned by rampart is not declared in these policies and would be deleted '
      + "(last declared in: not recorded, since an owner mark keeps a rule's name and not its file; rule name: scanner). "
      + 'If another directory declares it, plan only these files with --target FILE, or give these policies an owner of their own with --owner NAME.');
  });
});
