/**
 * Who may send a request body, and how much of them the server holds at once.
 *
 * Three rules keep anonymous clients from blocking or exhausting the intake, whatever path or key they use:
 * - one memory budget: the bytes of every body being received or processed, all paths together, never pass
 *   `maxBytesInFlight` (bytes are counted as they arrive, so a slow sender holds only what it sent);
 * - a cap on bodies per client address, so one address cannot hold many connections open mid-body;
 * - a minimum data rate (as Apache's `mod_reqtimeout` `MinRate`): after a grace period, a body must keep
 *   arriving at `minBytesPerSecond` on average, or it is cut off, freeing its connection.
 */

/** The limits of a {@link BodyAdmission}. */
export interface BodyAdmissionLimits {
  /** Most body bytes held at once, summed over every request. */
  maxBytesInFlight: number;
  /** Most bodies one client address may be sending (or have processed) at once. */
  maxBodiesPerAddress: number;
  /** Slowest average rate a body may arrive at once the grace period is over; 0 turns the rule off. */
  minBytesPerSecond: number;
  /** Time a body has before the minimum rate applies, in milliseconds. */
  graceMs: number;
}

/** Why a body was refused before it was read: the budget cannot take it, or its address sends too many. */
export type BodyRefusal = 'budget' | 'address';

/** One admitted body: counts its bytes against the budget until released. */
export interface BodyTicket {
  /** Counts bytes as they arrive. False when the budget cannot take them: stop reading and refuse the request. */
  take(bytes: number): boolean;
  /** The body is complete: the rate no longer applies (its bytes stay counted until {@link release}). */
  received(): void;
  /** Gives the bytes and the address's slot back. Safe to call more than once. */
  release(): void;
  /** Tells the ticket how to stop its body's read: called with `too-slow` when the body falls below the minimum rate. */
  stopReadWith(stop: (reason: 'too-slow') => void): void;
}

/** How often the minimum rate is checked. */
const RATE_CHECK_INTERVAL_MS = 1000;

/** A body still arriving, watched for its rate. */
interface ArrivingBody {
  startedAt: number;
  bytes: number;
  stop?: (reason: 'too-slow') => void;
}

/** Admits request bodies within the limits; see the module comment. */
export class BodyAdmission {
  #bytesInFlight = 0;
  #bodiesByAddress = new Map<string, number>();
  /** Bodies still arriving, watched for their rate. */
  #arriving = new Set<ArrivingBody>();
  #rateTimer: NodeJS.Timeout | undefined;

  constructor(readonly limits: BodyAdmissionLimits) {}

  /** Bytes of bodies held now. */
  get bytesInFlight(): number {
    return this.#bytesInFlight;
  }

  /**
   * Admits a body from `address` (unknown: no per-address cap) that declares `declaredBytes` (NaN when it
   * declares none), or says why not. A declared length that cannot fit into what the budget has free now is
   * refused at once, before a byte is read; nothing is reserved for it, so a slow sender declaring a large body
   * takes nothing from others.
   */
  admit(address: string | undefined, declaredBytes: number): BodyTicket | BodyRefusal {
    if (declaredBytes > this.limits.maxBytesInFlight - this.#bytesInFlight) return 'budget';
    if (address !== undefined && (this.#bodiesByAddress.get(address) ?? 0) >= this.limits.maxBodiesPerAddress) return 'address';
    if (address !== undefined) this.#bodiesByAddress.set(address, (this.#bodiesByAddress.get(address) ?? 0) + 1);
    const arriving: ArrivingBody = { startedAt: Date.now(), bytes: 0 };
    this.#watch(arriving);
    let held = 0;
    let released = false;
    return {
      take: (bytes) => {
        if (released) return false;
        if (this.#bytesInFlight + bytes > this.limits.maxBytesInFlight) return false;
        this.#bytesInFlight += bytes;
        held += bytes;
        arriving.bytes += bytes;
        return true;
      },
      received: () => this.#unwatch(arriving),
      release: () => {
        if (released) return;
        released = true;
        this.#unwatch(arriving);
        this.#bytesInFlight -= held;
        if (address === undefined) return;
        const bodies = this.#bodiesByAddress.get(address)! - 1;
        if (bodies === 0) this.#bodiesByAddress.delete(address);
        else this.#bodiesByAddress.set(address, bodies);
      },
      stopReadWith: (stop) => void (arriving.stop = stop),
    };
  }

  #watch(arriving: ArrivingBody): void {
    if (this.limits.minBytesPerSecond <= 0) return;
    this.#arriving.add(arriving);
    // One timer for every body; it stops itself at a tick with nothing to watch (not at every request's end,
    // which under load would make a timer per request), and never keeps the process alive.
    this.#rateTimer ??= setInterval(() => this.#cutOffSlowBodies(), RATE_CHECK_INTERVAL_MS).unref();
  }

  #unwatch(arriving: ArrivingBody): void {
    this.#arriving.delete(arriving);
  }

  #cutOffSlowBodies(): void {
    if (this.#arriving.size === 0) {
      clearInterval(this.#rateTimer);
      this.#rateTimer = undefined;
      return;
    }
    const now = Date.now();
    for (const arriving of this.#arriving) {
      const ratedMs = now - arriving.startedAt - this.limits.graceMs;
      if (ratedMs > 0 && arriving.bytes < (this.limits.minBytesPerSecond * ratedMs) / 1000) {
        this.#unwatch(arriving);
        arriving.stop?.('too-slow');
      }
    }
  }
}
