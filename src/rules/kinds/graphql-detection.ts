import { bool, int, oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  mode: oneOf(['off', 'default', 'monitoring', 'block'] as const, { required: true, example: 'block', description: '`off`, `default`, `monitoring` or `block`.' }),
  max_depth: int({ min: 1, max: 100, serviceDefault: 10, example: 10, description: 'Deepest query nesting allowed.' }),
  max_value_size_kb: int({ min: 1, max: 100, serviceDefault: 10, example: 10, description: 'Largest value, in KiB.' }),
  max_doc_size_kb: int({ min: 1, max: 1024, serviceDefault: 100, example: 100, description: 'Largest document, in KiB.' }),
  max_doc_per_batch: int({ min: 1, max: 100, serviceDefault: 10, example: 10, description: 'Most documents in a batch.' }),
  max_aliases: int({ min: 1, serviceDefault: 5, example: 5, description: 'Most aliases in a query (a count).' }),
  introspection: bool({ serviceDefault: true, example: false, description: 'Allow introspection queries.' }),
  debug_enabled: bool({ serviceDefault: true, example: false, description: 'Allow debug mode.' }),
};

export const graphqlDetection = defineRuleKind({
  yaml: 'graphql_detection',
  api: 'graphql_detection',
  description: 'GraphQL limits: documents beyond these limits are attacks, handled by `mode`. A limit left out is the service\'s.',
  point: 'none',
  fields,
  // The alias limit is a count the service takes as `max_aliases`; 0.1 wrote it as a size in KiB.
  renamed: { max_alias_size_kb: 'max_aliases' },
  updatable: ['mode', 'max_depth', 'max_value_size_kb', 'max_doc_size_kb', 'max_doc_per_batch', 'max_aliases', 'introspection', 'debug_enabled'],
  describe: (f) => `${f.mode ?? '?'}${f.max_depth !== undefined ? `, depth ≤ ${f.max_depth}` : ''}`,
  examples: [{ mode: 'block', max_depth: 10, introspection: false, debug_enabled: false }],
});
