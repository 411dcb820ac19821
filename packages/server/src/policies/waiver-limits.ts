/** The longest a waiver may run unless the server is told otherwise (`--waiver-max-days`). */
export const DEFAULT_WAIVER_MAX_DAYS = 365;
/** Most hosts one bulk waiver request may select: more are a group's or the fleet's waiver, one row each. */
export const MAX_BULK_WAIVER_HOSTS = 10_000;

/** What a waiver may be: how long it runs at most, and (bulk) how many hosts one request may waive. */
export interface WaiverLimits {
  maxDays: number;
  maxHosts?: number;
}
