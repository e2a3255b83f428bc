import { RampartError } from '../errors.js';

/** The forge (GitHub or GitLab) API refused or failed a comment call. */
export class ForgeApiError extends RampartError {
  readonly code = 'forge_api';

  constructor(
    message: string,
    readonly httpStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
