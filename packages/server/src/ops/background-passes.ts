/** How a {@link BackgroundPasses} runs. */
export interface BackgroundPassesOptions {
  /** A pass runs at least this often, even when nothing wakes it. */
  intervalMs: number;
  /** How long a wake waits, so that a burst of wakes makes one pass. */
  wakeDelayMs: number;
  /** Told when a pass fails; the next pass tries again. */
  onError(error: unknown): void;
}

/**
 * Runs a pass of background work on a timer and whenever woken, never two at once: a wake during a pass makes one
 * more pass after it. `pass` is told whether it was asked for by {@link settle} (tests and commands that want every
 * piece of work done now, periodic parts included).
 */
export class BackgroundPasses {
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pass: (settling: boolean) => Promise<void>,
    private readonly options: BackgroundPassesOptions,
  ) {}

  /** Whether {@link stop} was called: long passes check it between batches. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** A pass now, then one every interval. */
  start(): void {
    this.wake(0);
    this.timer = setInterval(() => this.wake(0), this.options.intervalMs);
    this.timer.unref();
  }

  /** Asks for a pass soon. */
  wake(delayMs = this.options.wakeDelayMs): void {
    if (this.stopped || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      void this.run(false);
    }, delayMs);
    this.wakeTimer.unref();
  }

  /** Runs a pass now, after the one under way, and resolves when no pass is running. */
  async settle(): Promise<void> {
    await this.idle();
    await this.run(true);
    await this.idle();
  }

  /** Stops the timers and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.wakeTimer);
    await this.running;
  }

  /** Resolves when no pass is running (a pass woken meanwhile included). */
  private async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private run(settling: boolean): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass(settling);
        } while (this.again && !this.stopped);
      } catch (error) {
        this.options.onError(error);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}

/** Work that runs as {@link BackgroundPasses} (policy evaluation, webhook delivery, report compaction): its controls. */
export abstract class BackgroundWorker {
  protected abstract readonly passes: BackgroundPasses;

  /** A pass now, then one every interval. */
  start(): this {
    this.passes.start();
    return this;
  }

  /** Asks for a pass soon (after a commit, a change or a redelivery); passes never overlap. */
  wake(): void {
    this.passes.wake();
  }

  /** Runs passes until no work is left (tests, and figures that want every piece of work done). */
  settle(): Promise<void> {
    return this.passes.settle();
  }

  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void> {
    return this.passes.stop();
  }
}
