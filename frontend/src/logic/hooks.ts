import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { ApiFailure, ApiResult } from '../api/client';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'ok'; data: T; code: string; message: string }
  | { status: 'error'; error: ApiFailure };

/** A failed load as TanStack Query's error: the ApiFailure itself. */
class LoadFailure extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/**
 * Loads what `key` names (with its inputs, e.g. `['operation', id]`) through TanStack Query: once per mount and
 * per new key, no refetch on its own; `reload` loads again, keeping the data shown meanwhile. A new key shows
 * "loading" unless an earlier answer for it is in the cache (then that is shown while it loads again). Cancels on
 * unmount. A failed reload shows its error (the data before is not shown as if it were current).
 */
export function useLoad<T>(
  key: readonly unknown[],
  load: (signal: AbortSignal) => Promise<ApiResult<T>>,
): [LoadState<T>, () => void] {
  const query = useQuery<Extract<ApiResult<T>, { ok: true }>, LoadFailure>({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const result = await load(signal);
      if (!result.ok) throw new LoadFailure(result);
      return result;
    },
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  let state: LoadState<T>;
  if (query.data && !query.isError) state = { status: 'ok', data: query.data.data, code: query.data.code, message: query.data.message };
  else if (query.error) state = { status: 'error', error: query.error.failure };
  else state = { status: 'loading' };
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
  /** Nothing has answered yet for this key (first load, or new filters). */
  loading: boolean;
  /** Load again now (a Retry button). */
  reload: () => void;
}

/** How often a list refreshes itself while the page is visible. */
export const LIST_REFRESH_MS = 15_000;

/**
 * The refetch policy of every self-refreshing view, on TanStack Query: loads at once, then every `everyMs` while
 * the page is visible (no polling in a hidden tab), and at once when it becomes visible again; a failed reload
 * keeps the last data on screen next to the error (no automatic retry: the next round is the retry). `key`
 * names what is loaded (with its filters): a new key is a new load, an earlier key's answer is shown from the
 * cache at once while it is refreshed. Nothing loads while `enabled` is false. Cancels on unmount.
 */
export function useRefreshing<T>(
  key: readonly unknown[],
  load: (signal: AbortSignal) => Promise<ApiResult<T>>,
  everyMs: number,
  enabled = true,
): Refreshing<T> {
  const query = useQuery<T, LoadFailure>({
    queryKey: key,
    enabled,
    queryFn: async ({ signal }) => {
      const result = await load(signal);
      if (!result.ok) throw new LoadFailure(result);
      return result.data;
    },
    refetchInterval: everyMs,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const error = query.error?.failure ?? null;
  return {
    data: query.data ?? null,
    error: error && error.kind !== 'aborted' ? error : null,
    loadedAt: query.dataUpdatedAt > 0 ? new Date(query.dataUpdatedAt) : null,
    loading: enabled && query.isPending,
    reload,
  };
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
