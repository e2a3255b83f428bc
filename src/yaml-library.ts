/** The parts of the `yaml` package Rampart uses, loaded with `require` (src/commonjs.ts says why). Types: `import type … from 'yaml'`. */
import type * as Yaml from 'yaml';
import { requireCommonJs } from './commonjs.js';

export const { CST, Document, Parser, Scalar, isMap, isNode, isScalar, isSeq, parse, parseDocument, stringify, visit } =
  requireCommonJs('yaml') as typeof Yaml;
