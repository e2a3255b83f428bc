import { bool, int, oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';

const fields = {
  mode: oneOf(['off', 'default', 'monitoring', 'block'] as const, { required: true, example: 'block', description: '`off`, `default`, `monitoring` or `block`.' }),
  max_depth: int({ min: 0, example: 10, description: 'Deepest query nesting allowed.' }),
  max_value_size_kb: int({ min: 0, example: 10, description: 'Largest value, in KiB.' }),
  max_doc_size_kb: int({ min: 0, example: 100, description: 'Largest document, in KiB.' }),
  max_aliases: int({ min: 0, example: 5, description: 'Most aliases in a query.' }),
  max_doc_per_batch: int({ min: 0, example: 10, description: 'Most documents in a batch.' }),
  introspection: bool({ default: false, example: false, description: 'Allow introspection queries (false when left out).' }),
  debug_enabled: bool({ default: false, example: false, description: 'Allow debug mode (false when left out).' }),
};

export const graphqlDetection = defineRuleKind({
  yaml: 'graphql_detection',
  api: 'graphql_detection',
  description: 'GraphQL limits: documents beyond these limits are attacks, handled by `mode`.',
  point: 'none',
  fields,
  updatable: ['mode', 'max_depth', 'max_value_size_kb', 'max_doc_size_kb', 'max_aliases', 'max_doc_per_batch', 'introspection', 'debug_enabled'],
  describe: (f) => `${f.mode ?? '?'}${f.max_depth !== undefined ? `, depth ≤ ${f.max_depth}` : ''}`,
  examples: [{ mode: 'block', max_depth: 10, max_aliases: 5, introspection: false, debug_enabled: false }],
});
