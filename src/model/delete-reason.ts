/**
 * Why an owned live object goes:
 * - `not-declared`: no policy declares it any more (the safety guard counts these);
 * - `duplicate`: another live object already provides it;
 * - `replaced`: a create earlier in the plan replaces it (a rule's comment changed);
 * - `moved`: an unmanaged IP object adopted with `--adopt` whose value the
 *   policies declare in another list: it goes once the value is in that list.
 */
export type DeleteReason = 'not-declared' | 'duplicate' | 'replaced' | 'moved';
