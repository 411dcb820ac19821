// What reading a form body takes and gives, shared by the urlencoded reader (`form.ts`) and the multipart one.

/**
 * Form fields by name. Values are latin1 strings, one character per byte received, so that binary-exact
 * content (the report) can be recovered with `Buffer.from(value, 'latin1')`. A repeated field becomes an array.
 */
export type FormFields = Record<string, string | string[]>;

/** The outcome of reading a form body. */
export type FormReadResult =
  /** `bytes`: the exact bytes of fields sent once, where the reader has them anyway (so the report needs no copy). */
  | { kind: 'fields'; fields: FormFields; bytes?: ReadonlyMap<string, Buffer> }
  | { kind: 'too-large' }
  | { kind: 'unsupported-type' }
  | { kind: 'malformed'; reason: string }
  /** `onBytes` refused bytes (the memory budget is full). */
  | { kind: 'over-budget' }
  /** The caller stopped the read (`onStart`'s function); the reason it gave says why. */
  | { kind: 'aborted'; reason: unknown };

/** A {@link FormReadResult} with the number of body bytes read to reach it. */
export type FormRead = FormReadResult & { bytesReceived: number };

/** What the caller watches while a body arrives. */
export interface FormReadWatch {
  /**
   * Given, as reading starts, the function that stops it: the read then settles as `aborted` with the reason
   * given, and the rest of the body is not read. (A plain function rather than an AbortSignal: one per request
   * cost a tenth of a license check.)
   */
  onStart?(stop: (reason: unknown) => void): void;
  /** Told of every chunk's size as it arrives; returning false stops reading (`over-budget`). */
  onBytes?(bytes: number): boolean;
  /**
   * Told of each field as soon as it is complete, before the rest of the body (urlencoded: among the first
   * few fields, when the body declares its length; multipart: every field part). For refusing early.
   */
  onField?(name: string, value: string): void;
}

/** Bounds on what one request body may hold. */
export interface FormLimits {
  /** Largest body accepted, in bytes. */
  maxBodyBytes: number;
  /** Most fields (and file parts) accepted in one body. */
  maxFields: number;
}
