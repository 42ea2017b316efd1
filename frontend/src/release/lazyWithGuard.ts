import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AssetFailure, GuardState } from './reloadGuard';

export interface FailureSink {
  reportFailure(failure: AssetFailure): GuardState;
}

/** A marker error so the error boundary can tell "a chunk failed to load" from a rendering bug. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the application could not be loaded.');
    this.name = 'ChunkLoadError';
    this.cause = cause;
  }
}

/**
 * Loads a lazy route chunk and, when the import fails (a release removed the chunk), reports the
 * failure to the release guard. Vite also fires `vite:preloadError` for it; the guard makes one
 * decision per page, so reporting twice is harmless, and this path also covers imports that Vite
 * did not wrap with its preload helper.
 */
export function loadWithGuard<T>(load: () => Promise<T>, sink: FailureSink): Promise<T> {
  return load().catch((error: unknown) => {
    sink.reportFailure({ kind: 'chunk' });
    throw new ChunkLoadError(error);
  });
}

export function lazyWithGuard<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  sink: FailureSink,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => loadWithGuard(load, sink));
}
