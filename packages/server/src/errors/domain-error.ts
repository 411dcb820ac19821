import type { RuleError } from '../generated/types.gen.js';

/**
 * What went wrong, in terms every caller understands: bad input (`invalid`), no such thing (`not_found`), a state
 * that forbids the operation (`conflict`), or a server setting that keeps this caller from it (`forbidden`). The
 * codes are stable: the admin API and the command line each turn them into their answer in one place.
 */
export type DomainErrorCode = 'invalid' | 'not_found' | 'conflict' | 'forbidden';

/**
 * How every domain (keys and tokens, policies and waivers, webhooks, hosts) reports a failure its caller should
 * hear of, rather than a boolean or an outcome string each caller turns into an answer by hand. `message` is for
 * the command line and logs, `detail` for the admin API's problem; neither ever carries a secret.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  /** The problem's text; the message unless told otherwise. */
  readonly detail: string;
  /** Each part of the input that is wrong (an invalid policy's rules), answered as the problem's `errors`. */
  readonly errors: readonly RuleError[];

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    options: { detail?: string; errors?: readonly RuleError[] } = {},
  ) {
    super(message);
    this.detail = options.detail ?? message;
    this.errors = options.errors ?? [];
  }
}

/** Whether `error` is a {@link DomainError} with this code. */
export const isDomainError = (error: unknown, code: DomainErrorCode): error is DomainError => error instanceof DomainError && error.code === code;

/** The failure of an operation on something that does not exist: `No host with id …`. */
export const notFound = (thing: string, id: string): DomainError => new DomainError('not_found', `No ${thing} with id ${id}`);
