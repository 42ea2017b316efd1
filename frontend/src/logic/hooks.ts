import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiFailure, ApiResult } from '../api/client';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'ok'; data: T; code: string; message: string }
  | { status: 'error'; error: ApiFailure };

/** Loads once per change of `deps`, cancels on unmount; `reload` loads again (keeping the data shown meanwhile). */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<ApiResult<T>>,
  deps: readonly unknown[],
): [LoadState<T>, () => void] {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const lastRound = useRef(round);

  useEffect(() => {
    const controller = new AbortController();
    // New inputs show "loading"; a reload keeps what is on screen until the answer arrives.
    if (lastRound.current === round) setState({ status: 'loading' });
    lastRound.current = round;
    void loadRef.current(controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setState(
        result.ok
          ? { status: 'ok', data: result.data, code: result.code, message: result.message }
          : { status: 'error', error: result },
      );
    });
    return () => controller.abort();
    // the caller names the inputs in `deps`; `load` itself is read through the ref
  }, [...deps, round]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [state, reload];
}

/** Whole seconds left until `until` (epoch ms), ticking each second; 0 once reached, null when none. */
export function useSecondsUntil(until: number | null, now: () => number = Date.now): number | null {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until === null) return undefined;
    const remaining = until - now();
    if (remaining <= 0) return undefined;
    const interval = setInterval(() => setTick((t) => t + 1), 1000);
    const timeout = setTimeout(() => {
      clearInterval(interval);
      setTick((t) => t + 1);
    }, remaining);
    return () => {
      clearInterval(interval);
      clearTimeout(timeout);
    };
  }, [until, now]);
  if (until === null) return null;
  return Math.max(0, Math.ceil((until - now()) / 1000));
}

/** What a refreshing load shows: the last answer (kept while reloading and after a failed reload) and the last error. */
export interface Refreshing<T> {
  data: T | null;
  error: ApiFailure | null;
  /** When the data shown was loaded. */
  loadedAt: Date | null;
}

/**
 * Loads at once, then every `everyMs` while the page is visible, and at once when it becomes visible again; a
 * failed reload keeps the last data on screen next to the error. Cancels on unmount.
 */
export function useRefreshing<T>(load: (signal: AbortSignal) => Promise<ApiResult<T>>, everyMs: number): Refreshing<T> {
  const [state, setState] = useState<Refreshing<T>>({ data: null, error: null, loadedAt: null });
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let live = true;
    let controller = new AbortController();
    async function run() {
      controller.abort();
      controller = new AbortController();
      const result = await loadRef.current(controller.signal);
      if (!live || (!result.ok && result.kind === 'aborted')) return;
      setState((previous) =>
        result.ok ? { data: result.data, error: null, loadedAt: new Date() } : { ...previous, error: result },
      );
    }
    void run();
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void run();
    }, everyMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void run();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [everyMs]);

  return state;
}

/** The current time, renewed every `everyMs` (for "in this step for 12 min" between polls). */
export function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
