/**
 * Posting the plan comment through a forge: find ours, then create, update in
 * place or leave it. The forge-specific calls live in github.ts / gitlab.ts.
 */
import { commentBody, decideComment, type ExistingComment } from './pr-comment.js';

export interface Forge {
  /** `github` or `gitlab`, for messages. */
  readonly name: string;
  /** `owner/repo#12` or `group/project!12`. */
  readonly target: string;
  /** The login of the token's user, when the forge tells. */
  whoAmI(): Promise<string | undefined>;
  listComments(): Promise<ExistingComment[]>;
  createComment(body: string): Promise<number>;
  updateComment(id: number, body: string): Promise<void>;
}

export interface UpsertResult {
  readonly action: 'create' | 'update' | 'none';
  readonly id: number;
}

export interface UpsertOptions {
  /** Only this author's comments count as ours; default: the token's user, else `fallbackAuthor`. */
  readonly author?: string;
  readonly fallbackAuthor?: string;
  readonly marker?: string;
}

export async function upsertPlanComment(forge: Forge, text: string, options: UpsertOptions = {}): Promise<UpsertResult> {
  const body = commentBody(text, options.marker ? { marker: options.marker } : {});
  const author = options.author ?? (await forge.whoAmI()) ?? options.fallbackAuthor;
  const existing = await forge.listComments();
  const decision = decideComment(existing, body, { ...(options.marker ? { marker: options.marker } : {}), ...(author ? { author } : {}) });
  switch (decision.action) {
    case 'create':
      return { action: 'create', id: await forge.createComment(body) };
    case 'update':
      await forge.updateComment(decision.id, body);
      return decision;
    case 'none':
      return decision;
  }
}
