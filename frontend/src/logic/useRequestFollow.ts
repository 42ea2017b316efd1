import { useEffect, useRef, useState } from 'react';
import type { ApiFailure } from '../api/client';
import { getRequest } from '../api/endpoints';
import type { RequestView } from '../api/types';
import {
  browserTimers,
  createPoller,
  documentVisibility,
  isFinished,
  type Poller,
  type PollerSnapshot,
  type PollOutcome,
  type VisibilitySource,
} from './polling';

/** Fingerprint of what a person sees: any change resets the backoff. */
export function requestFingerprint(view: RequestView): string {
  return JSON.stringify([
    view.status,
    view.step,
    view.stepCode,
    view.hint?.code ?? null,
    view.mergeRequest?.webUrl ?? null,
    view.batchId,
    view.updatedAt,
    view.timeline?.length ?? 0,
  ]);
}

/** Failures after which polling again will not help. */
export function isFatal(failure: ApiFailure): boolean {
  return failure.status === 401 || failure.status === 403 || failure.status === 404;
}

/** `source`, except that a hidden page counts as visible while `keepAwake` says so. */
export function awake(source: VisibilitySource, keepAwake: () => boolean): VisibilitySource {
  return { isHidden: () => !keepAwake() && source.isHidden(), subscribe: (listener) => source.subscribe(listener) };
}

export interface FollowState {
  view: RequestView | null;
  error: ApiFailure | null;
  snapshot: PollerSnapshot;
  refreshNow: () => void;
}

export interface FollowOptions {
  /** Read on every look: true keeps looking while the tab is hidden (a notification is wanted), at the same backoff. */
  pollWhileHidden?: () => boolean;
}

export function useRequestFollow(operationId: string, options: FollowOptions = {}): FollowState {
  const pollWhileHidden = useRef(options.pollWhileHidden);
  pollWhileHidden.current = options.pollWhileHidden;
  const [view, setView] = useState<RequestView | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [snapshot, setSnapshot] = useState<PollerSnapshot>({ phase: 'idle', delayMs: null, stopReason: null });
  const pollerRef = useRef<Poller | null>(null);

  useEffect(() => {
    setView(null);
    setError(null);
    let lastError: ApiFailure | null = null;
    const poller = createPoller<RequestView>({
      load: async (signal): Promise<PollOutcome<RequestView>> => {
        const result = await getRequest(operationId, signal);
        if (result.ok) return { kind: 'data', value: result.data };
        lastError = result;
        return { kind: 'error', fatal: isFatal(result), retryAfterSeconds: result.retryAfterSeconds };
      },
      fingerprint: requestFingerprint,
      isFinished,
      onData: (value) => {
        setView(value);
        setError(null);
      },
      onError: () => {
        if (lastError && lastError.kind !== 'aborted') setError(lastError);
      },
      onSnapshot: setSnapshot,
      timers: browserTimers,
      visibility: awake(documentVisibility(document), () => pollWhileHidden.current?.() ?? false),
    });
    pollerRef.current = poller;
    poller.start();
    return () => {
      poller.dispose();
      pollerRef.current = null;
    };
  }, [operationId]);

  return { view, error, snapshot, refreshNow: () => pollerRef.current?.refreshNow() };
}
