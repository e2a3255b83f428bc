/**
 * `npm run generate`: writes what is generated from the code, so the files
 * editors and readers use never drift from it: schemas/policy.schema.json and
 * the rule-kind tables of docs/policy-reference.md. A test fails when either
 * is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaPath } from '../policy/schema.js';
import { schemaText } from '../policy/schema-document.js';
import { replaceGeneratedBlock, ruleKindReference } from '../rules/reference.js';

const root = join(schemaPath(), '..', '..');
writeFileSync(schemaPath(), schemaText());
const reference = join(root, 'docs', 'policy-reference.md');
writeFileSync(reference, replaceGeneratedBlock(readFileSync(reference, 'utf8'), ruleKindReference()));
process.stdout.write(`wrote ${schemaPath()} and the rule kinds of ${reference}\n`);
