/** Comments and reasons as a policy holds them, for every class. */
import { OWNER_MARK_PATTERN } from '../policy/document.js';

/** A comment or reason as the policy can hold it: not empty, no owner mark. */
export function cleanText(text: string | undefined): string | undefined {
  if (text === undefined || text === '' || OWNER_MARK_PATTERN.test(text)) return undefined;
  return text;
}
