import { int, oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { SIZE_UNITS } from '../../grammar/vocabulary.js';

const fields = {
  size: int({ min: 1, required: true, example: 10, description: 'The largest size allowed.' }),
  size_unit: oneOf(SIZE_UNITS, { serviceDefault: 'b', example: 'mb', description: '`b`, `kb`, `mb`, `gb` or `tb`.' }),
  mode: oneOf(['monitoring', 'block', 'off', 'default'] as const, { serviceDefault: 'monitoring', example: 'block', description: '`monitoring`, `block`, `off` or `default`.' }),
};

export const fileUploadSizeLimit = defineRuleKind({
  yaml: 'file_upload_size_limit',
  api: 'file_upload_size_limit',
  description: 'Upload size limit: requests (or the value at `point`) larger than `size` `size_unit` are handled by `mode`.',
  point: 'optional',
  fields,
  updatable: ['mode', 'size'],
  describe: (f) => `over ${f.size ?? '?'} ${f.size_unit ?? 'b'}: ${f.mode ?? 'monitoring'}`,
  examples: [
    { size: 10, size_unit: 'mb', mode: 'block' },
    { size: 512, size_unit: 'kb', mode: 'monitoring', point: [['post'], ['multipart', 'avatar']] },
  ],
});
