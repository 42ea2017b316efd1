/**
 * Following a request live: poll with backoff (1 s doubling to 15 s, back to 1 s when something
 * changed), stop at a final state, pause while the tab is hidden and poll at once when it shows
 * again. Timers and visibility are injected so the schedule is testable with fake timers.
 */

export const INITIAL_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 15_000;

/** Final external states: nothing more happens to the request on its own. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['VALIDATED', 'REJECTED', 'CLOSED', 'EXPIRED', 'REVOKED']);

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
}

/** The wait before the next poll: `initial` after a change (or the first answer), else doubled, capped. */
export function nextDelay(previous: number | null, changed: boolean, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? INITIAL_DELAY_MS;
  const max = options.maxMs ?? MAX_DELAY_MS;
  if (previous === null || changed) return initial;
  return Math.min(previous * 2, max);
}

/** A request stops being followed at a final state, or when a re-application replaced it (status null). */
export function isFinished(view: { status: string | null }): boolean {
  return view.status === null || TERMINAL_STATUSES.has(view.status);
}

export type PollOutcome<T> =
  | { kind: 'data'; value: T }
  /** fatal: polling again will not help (404, 401, 403). */
  | { kind: 'error'; fatal: boolean; retryAfterSeconds?: number | null };

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface VisibilitySource {
  isHidden(): boolean;
  subscribe(listener: () => void): () => void;
}

export type PollerPhase = 'idle' | 'loading' | 'waiting' | 'paused' | 'stopped';

export interface PollerSnapshot {
  phase: PollerPhase;
  /** Milliseconds of the wait currently scheduled (phase waiting). */
  delayMs: number | null;
  /** Why polling stopped (phase stopped). */
  stopReason: 'finished' | 'error' | 'disposed' | null;
}

export interface PollerOptions<T> extends BackoffOptions {
  load: (signal: AbortSignal) => Promise<PollOutcome<T>>;
  fingerprint: (value: T) => string;
  isFinished: (value: T) => boolean;
  onData?: (value: T, changed: boolean) => void;
  onError?: (outcome: Extract<PollOutcome<T>, { kind: 'error' }>) => void;
  onSnapshot?: (snapshot: PollerSnapshot) => void;
  timers: Timers;
  visibility: VisibilitySource;
}

export interface Poller {
  start(): void;
  /** Poll now and restart the backoff from the initial delay. */
  refreshNow(): void;
  dispose(): void;
  snapshot(): PollerSnapshot;
}

export function createPoller<T>(options: PollerOptions<T>): Poller {
  const { timers, visibility } = options;
  let phase: PollerPhase = 'idle';
  let delay: number | null = null;
  let stopReason: PollerSnapshot['stopReason'] = null;
  let timer: unknown = null;
  let lastFingerprint: string | null = null;
  let controller: AbortController | null = null;
  let unsubscribe: (() => void) | null = null;
  let generation = 0;

  // read through a function: TypeScript would otherwise keep the narrowing across the await
  const currentPhase = (): PollerPhase => phase;
  const snapshot = (): PollerSnapshot => ({ phase, delayMs: phase === 'waiting' ? delay : null, stopReason });
  const emit = (): void => options.onSnapshot?.(snapshot());

  function clearTimer(): void {
    if (timer !== null) {
      timers.clearTimeout(timer);
      timer = null;
    }
  }

  function stop(reason: NonNullable<PollerSnapshot['stopReason']>): void {
    clearTimer();
    controller?.abort();
    controller = null;
    unsubscribe?.();
    unsubscribe = null;
    phase = 'stopped';
    stopReason = reason;
    emit();
  }

  function schedule(): void {
    if (visibility.isHidden()) {
      phase = 'paused';
      emit();
      return;
    }
    phase = 'waiting';
    const wait = delay ?? options.initialMs ?? INITIAL_DELAY_MS;
    timer = timers.setTimeout(() => {
      timer = null;
      void tick();
    }, wait);
    emit();
  }

  async function tick(): Promise<void> {
    if (phase === 'stopped') return;
    clearTimer();
    controller?.abort();
    const mine = ++generation;
    controller = new AbortController();
    phase = 'loading';
    emit();
    const outcome = await options.load(controller.signal).catch(
      (): PollOutcome<T> => ({ kind: 'error', fatal: false }),
    );
    if (mine !== generation || currentPhase() === 'stopped') return;
    controller = null;
    if (outcome.kind === 'data') {
      const fp = options.fingerprint(outcome.value);
      const changed = fp !== lastFingerprint;
      lastFingerprint = fp;
      delay = nextDelay(delay, changed, options);
      options.onData?.(outcome.value, changed);
      if (options.isFinished(outcome.value)) {
        stop('finished');
        return;
      }
    } else {
      options.onError?.(outcome);
      if (outcome.fatal) {
        stop('error');
        return;
      }
      delay = nextDelay(delay, false, options);
      if (outcome.retryAfterSeconds) delay = Math.max(delay, outcome.retryAfterSeconds * 1000);
    }
    schedule();
  }

  function onVisibilityChange(): void {
    if (phase === 'stopped' || phase === 'idle') return;
    if (visibility.isHidden()) {
      clearTimer();
      if (phase === 'waiting') {
        phase = 'paused';
        emit();
      }
      return;
    }
    if (phase === 'paused') {
      delay = null; // back from the background: look now, then start the backoff again
      void tick();
    }
  }

  return {
    start() {
      if (phase !== 'idle') return;
      unsubscribe = visibility.subscribe(onVisibilityChange);
      if (visibility.isHidden()) {
        phase = 'paused';
        emit();
        return;
      }
      void tick();
    },
    refreshNow() {
      if (phase === 'idle') return;
      if (phase === 'stopped') {
        if (stopReason === 'disposed') return;
        // a manual refresh after the end still reads once, without restarting the loop
        phase = 'loading';
        stopReason = null;
        unsubscribe = visibility.subscribe(onVisibilityChange);
      }
      delay = null;
      void tick();
    },
    dispose() {
      if (phase !== 'stopped' || stopReason !== 'disposed') stop('disposed');
    },
    snapshot,
  };
}

/** The document's visibility, for the browser. */
export function documentVisibility(doc: Document): VisibilitySource {
  return {
    isHidden: () => doc.visibilityState === 'hidden',
    subscribe(listener) {
      doc.addEventListener('visibilitychange', listener);
      return () => doc.removeEventListener('visibilitychange', listener);
    },
  };
}

export const browserTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
