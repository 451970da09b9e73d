/**
 * The simulator's clock: real time plus an offset that the control API can move. Timers scheduled
 * on it fire when simulated time reaches them, either because real time passed or because the
 * clock was advanced or set; a callback receives its own due time, so chains of timers keep exact
 * simulated timestamps even when the clock jumps far ahead.
 */
export interface ScheduledTask {
  cancel(): void;
}

interface Task {
  id: number;
  due: number;
  run: (at: number) => void;
}

export class SimClock {
  private offsetMs = 0;
  private tasks: Task[] = [];
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private firing = false;

  constructor(private readonly onTaskError: (error: unknown) => void = () => undefined) {}

  /** Simulated milliseconds since the epoch. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += Math.round(seconds * 1000);
    this.fireDue();
  }

  set(ms: number): void {
    this.offsetMs = ms - Date.now();
    this.fireDue();
  }

  /** Runs `run(due)` once simulated time reaches `due` (milliseconds since the epoch). */
  scheduleAt(due: number, run: (at: number) => void): ScheduledTask {
    const task: Task = { id: this.nextId++, due, run };
    if (!this.closed) {
      this.tasks.push(task);
      this.arm();
    }
    return { cancel: () => this.cancel(task.id) };
  }

  /**
   * Resolves once simulated time has moved `ms` on (real time passing, or the clock advanced);
   * rejects with the signal's reason if it aborts first. The same shape as Callbar's core Clock.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        task.cancel();
        reject(signal!.reason as Error);
      };
      const task = this.scheduleAt(this.now() + Math.max(0, ms), () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  pendingTasks(): number {
    return this.tasks.length;
  }

  close(): void {
    this.closed = true;
    this.tasks = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private cancel(id: number): void {
    this.tasks = this.tasks.filter((task) => task.id !== id);
    this.arm();
  }

  private fireDue(): void {
    if (this.firing || this.closed) return;
    this.firing = true;
    try {
      for (;;) {
        const now = this.now();
        const due = this.tasks
          .filter((task) => task.due <= now)
          .sort((a, b) => a.due - b.due || a.id - b.id)[0];
        if (!due) break;
        this.tasks = this.tasks.filter((task) => task !== due);
        try {
          due.run(due.due);
        } catch (error) {
          this.onTaskError(error);
        }
      }
    } finally {
      this.firing = false;
    }
    this.arm();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.firing || this.tasks.length === 0) return;
    const next = Math.min(...this.tasks.map((task) => task.due));
    // setTimeout caps at 2^31-1 ms; a far-away task is re-armed when that timer fires.
    const wait = Math.min(Math.max(0, next - this.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => this.fireDue(), wait);
    this.timer.unref();
  }
}
