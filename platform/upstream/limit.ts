/**
 * A counting semaphore: at most `max` tasks of one upstream run at once, so a burst of
 * requests (or one composite answer fanning out) never floods a public API.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  /** Runs `task` when a slot is free and frees the slot however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays counted.
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks running now (tests check the cap with it). */
  get running(): number {
    return this.active;
  }
}
