import { oneOf } from '../field.js';
import { defineRuleKind } from '../kind.js';
import { UPLOAD_FILE_TYPES } from '../../grammar/vocabulary.js';

const fields = {
  file_type: oneOf(UPLOAD_FILE_TYPES, { required: true, example: 'images', description: 'What the uploaded files are: `docs`, `html`, `images`, `music` or `video`.' }),
};

export const uploads = defineRuleKind({
  yaml: 'uploads',
  api: 'uploads',
  description: 'File uploads: the value at `point` is a file of `file_type`, checked as such.',
  point: 'required',
  fields,
  updatable: ['file_type'],
  describe: (f) => `uploads of ${f.file_type ?? '?'}`,
  examples: [{ file_type: 'images', point: [['post'], ['multipart', 'avatar']] }],
});
