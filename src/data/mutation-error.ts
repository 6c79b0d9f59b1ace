import type { MutationErrorCode } from '../domain/sync-codes.ts';

/** A mutation the client refuses before queueing it; `message` is the wording of docs/product.md. */
export class MutationError extends Error {
  readonly code: MutationErrorCode;

  constructor(code: MutationErrorCode, message: string) {
    super(message);
    this.name = 'MutationError';
    this.code = code;
  }
}

export function refuse(code: MutationErrorCode, message: string): never {
  throw new MutationError(code, message);
}
