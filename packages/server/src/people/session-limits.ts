/** How long a person's session lasts (`--session-idle-minutes`, `--session-max-hours`). */
export interface SessionLimits {
  /** Unused for this long, a session ends. */
  idleMinutes: number;
  /** However busy, a session ends this long after sign-in. */
  maxHours: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMinutes: 30, maxHours: 12 };
