/**
 * Release resilience (design 3.8): after a release, an already-open page may ask for hashed assets
 * that no longer exist. When a core asset (one of our scripts or stylesheets, or a lazy route chunk)
 * fails to load, the page reloads itself once with a cache-busting parameter so it picks up the new
 * index.html. The time of the last automatic reload is kept in sessionStorage; within 30 s no
 * second automatic reload happens and a "Refresh page" button is shown instead. When sessionStorage
 * cannot be read or written (private mode, blocked storage) the button is shown: without a record of
 * the last reload an automatic one could loop.
 *
 * This module has no imports and touches no globals: window, storage and clock are injected, so it is
 * unit-testable and can be bundled into the inline early script of index.html (see early.ts).
 */

/** sessionStorage key holding the epoch millis of the last automatic reload. */
export const RELOAD_STORAGE_KEY = 'changeflow.release.lastAutoReloadAt';
/** Query parameter added to the URL of an automatic (or manual) reload to bypass caches. */
export const RELOAD_PARAM = '_r';
/** No second automatic reload within this many milliseconds of the last one. */
export const RELOAD_WINDOW_MS = 30_000;
/** Global name under which the installed guard is published for the app bundle. */
export const GUARD_GLOBAL = '__changeflowReleaseGuard';

export type AssetKind = 'script' | 'stylesheet' | 'chunk';

export interface AssetFailure {
  kind: AssetKind;
  /** The URL that failed, when known. */
  url?: string;
}

/** idle: nothing failed; reloading: an automatic reload was started; blocked: the button is shown. */
export type GuardState = 'idle' | 'reloading' | 'blocked';

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface LocationLike {
  readonly href: string;
  replace(url: string): void;
}

export interface HistoryLike {
  readonly state: unknown;
  replaceState(data: unknown, unused: string, url?: string | null): void;
}

/** The part of `window` the guard uses. */
export interface GuardWindow {
  readonly location: LocationLike;
  readonly history?: HistoryLike;
  addEventListener(type: string, listener: (event: Event) => void, options?: boolean): void;
  removeEventListener(type: string, listener: (event: Event) => void, options?: boolean): void;
}

export interface ReloadGuardOptions {
  win: GuardWindow;
  /** Returns sessionStorage; may throw (merely touching window.sessionStorage can throw). */
  storage: () => StorageLike | null | undefined;
  now: () => number;
  windowMs?: number;
  /** Called once when an automatic reload is refused: show the "Refresh page" button. */
  onBlocked?: (failure: AssetFailure) => void;
}

export interface ReloadGuard {
  readonly state: GuardState;
  /** Reports a failed core asset; reloads or shows the button. Returns the resulting state. */
  reportFailure(failure: AssetFailure): GuardState;
  /** Manual reload (the button): always allowed, cache-busted, does not touch the stored time. */
  refresh(): void;
  /** Listens for state changes; returns the unsubscribe function. */
  subscribe(listener: (state: GuardState) => void): () => void;
  /** Adds the window listeners; returns a function that removes them. */
  install(): () => void;
}

/** The URL to reload: the current one with `_r=<now>` (path and hash kept). */
export function cacheBustedUrl(href: string, now: number): string {
  const url = new URL(href);
  url.searchParams.set(RELOAD_PARAM, String(now));
  return url.toString();
}

/** The current URL without the cache-busting parameter, or null when it has none. */
export function withoutCacheBust(href: string): string | null {
  const url = new URL(href);
  if (!url.searchParams.has(RELOAD_PARAM)) return null;
  url.searchParams.delete(RELOAD_PARAM);
  return url.toString();
}

/**
 * Pure decision: may we reload automatically now? `lastRaw` is the stored value, or an Error when
 * storage could not be read. Unknown or future timestamps count as "recent" (no loop risk taken),
 * except a value that is not a number at all, which counts as "never".
 */
export function mayAutoReload(lastRaw: string | null | Error, now: number, windowMs: number = RELOAD_WINDOW_MS): boolean {
  if (lastRaw instanceof Error) return false;
  if (lastRaw === null || lastRaw.trim() === '') return true;
  const last = Number(lastRaw);
  if (!Number.isFinite(last)) return true;
  const elapsed = now - last;
  return elapsed >= windowMs;
}

interface ElementLike {
  tagName?: unknown;
  src?: unknown;
  href?: unknown;
  rel?: unknown;
}

/**
 * Classifies a window `error` event seen in the capture phase: a load failure of one of our
 * scripts, module preloads or stylesheets is a core asset failure; runtime errors (target = window),
 * images, and assets of other origins are not.
 */
export function assetFailureOf(event: Event, pageHref: string): AssetFailure | null {
  const target = event.target as ElementLike | null;
  if (!target || typeof target.tagName !== 'string') return null;
  const tag = target.tagName.toUpperCase();
  let kind: AssetKind;
  let url: unknown;
  if (tag === 'SCRIPT') {
    kind = 'script';
    url = target.src;
  } else if (tag === 'LINK') {
    const rel = typeof target.rel === 'string' ? target.rel.toLowerCase().split(/\s+/) : [];
    if (rel.includes('stylesheet')) kind = 'stylesheet';
    else if (rel.includes('modulepreload')) kind = 'script';
    else return null;
    url = target.href;
  } else {
    return null;
  }
  if (typeof url !== 'string' || url === '') return null;
  try {
    const page = new URL(pageHref);
    const asset = new URL(url, page);
    if (asset.origin !== page.origin) return null;
    return { kind, url: asset.toString() };
  } catch {
    return null;
  }
}

export function createReloadGuard(options: ReloadGuardOptions): ReloadGuard {
  const { win, now } = options;
  const windowMs = options.windowMs ?? RELOAD_WINDOW_MS;
  const listeners = new Set<(state: GuardState) => void>();
  let state: GuardState = 'idle';

  function setState(next: GuardState): void {
    if (state === next) return;
    state = next;
    for (const listener of listeners) {
      try {
        listener(next);
      } catch {
        // a broken listener must not stop the recovery
      }
    }
  }

  function readLast(): string | null | Error {
    try {
      const storage = options.storage();
      if (!storage) return new Error('no storage');
      return storage.getItem(RELOAD_STORAGE_KEY);
    } catch (e) {
      return e instanceof Error ? e : new Error('storage unavailable');
    }
  }

  function recordReload(at: number): boolean {
    try {
      const storage = options.storage();
      if (!storage) return false;
      storage.setItem(RELOAD_STORAGE_KEY, String(at));
      // Some private modes accept the write and drop it: only trust what reads back.
      return storage.getItem(RELOAD_STORAGE_KEY) === String(at);
    } catch {
      return false;
    }
  }

  function block(failure: AssetFailure): GuardState {
    if (state !== 'blocked') {
      setState('blocked');
      try {
        options.onBlocked?.(failure);
      } catch {
        // showing the button failed; nothing else we can safely do
      }
    }
    return state;
  }

  function reportFailure(failure: AssetFailure): GuardState {
    // Several assets of one page usually fail together: one decision per page life.
    if (state !== 'idle') return state;
    const at = now();
    if (!mayAutoReload(readLast(), at, windowMs)) return block(failure);
    if (!recordReload(at)) return block(failure);
    setState('reloading');
    win.location.replace(cacheBustedUrl(win.location.href, at));
    return state;
  }

  function refresh(): void {
    win.location.replace(cacheBustedUrl(win.location.href, now()));
  }

  function install(): () => void {
    const onError = (event: Event): void => {
      const failure = assetFailureOf(event, win.location.href);
      if (failure) reportFailure(failure);
    };
    const onPreloadError = (event: Event): void => {
      const payload = (event as Event & { payload?: unknown }).payload;
      const message = payload instanceof Error ? payload.message : '';
      const match = /https?:\/\/\S+|\/assets\/\S+/.exec(message);
      reportFailure(match ? { kind: 'chunk', url: match[0] } : { kind: 'chunk' });
    };
    win.addEventListener('error', onError, true);
    win.addEventListener('vite:preloadError', onPreloadError);
    // Tidy the address bar after an automatic reload: the parameter has done its job.
    try {
      const clean = withoutCacheBust(win.location.href);
      if (clean && win.history) win.history.replaceState(win.history.state, '', clean);
    } catch {
      // cosmetic only
    }
    return () => {
      win.removeEventListener('error', onError, true);
      win.removeEventListener('vite:preloadError', onPreloadError);
    };
  }

  return {
    get state() {
      return state;
    },
    reportFailure,
    refresh,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    install,
  };
}
