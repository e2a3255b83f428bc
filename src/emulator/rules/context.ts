/** What rule validation needs from the running emulator: its switches and a look into the state. */
import type { EmulatorCore } from '../core.js';
import { isLive } from '../store.js';
import { ruleKind } from './catalogue.js';
import type { RuleContext } from './validate.js';

export function ruleContext(core: EmulatorCore): RuleContext {
  return {
    rewrites: { upperCaseMethod: core.config.undocumentedRewrites },
    extendedToken: core.config.extendedToken,
    regexExists(clientid, regexId) {
      for (const stored of core.state.hints.values()) {
        const hint = stored.record;
        if (isLive(stored) && hint.clientid === clientid && hint.regex_id === regexId && ruleKind(hint.type)?.hasRegexId) return true;
      }
      return false;
    },
  };
}
