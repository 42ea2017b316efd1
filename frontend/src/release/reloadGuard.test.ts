import { describe, expect, it, vi } from 'vitest';
import {
  assetFailureOf,
  cacheBustedUrl,
  createReloadGuard,
  mayAutoReload,
  RELOAD_PARAM,
  RELOAD_STORAGE_KEY,
  RELOAD_WINDOW_MS,
  withoutCacheBust,
  type GuardWindow,
  type StorageLike,
} from './reloadGuard';
import { showRefreshBanner } from './refreshBanner';
import { loadWithGuard, ChunkLoadError } from './lazyWithGuard';

class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

/** A fake window: records reloads, dispatches events to the listeners the guard added. */
function fakeWindow(href = 'https://app.example/requests/abc?tab=1#top') {
  const listeners = new Map<string, Array<{ fn: (e: Event) => void; capture: boolean }>>();
  const reloads: string[] = [];
  const replaced: string[] = [];
  const win: GuardWindow & { dispatch(type: string, event: Event): void } = {
    location: {
      href,
      replace: (url: string) => {
        reloads.push(url);
      },
    },
    history: {
      state: { some: 'state' },
      replaceState: (_data: unknown, _unused: string, url?: string | null) => {
        if (url) replaced.push(url);
      },
    },
    addEventListener(type, fn, capture) {
      const list = listeners.get(type) ?? [];
      list.push({ fn, capture: capture === true });
      listeners.set(type, list);
    },
    removeEventListener(type, fn) {
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((l) => l.fn !== fn),
      );
    },
    dispatch(type, event) {
      for (const l of listeners.get(type) ?? []) l.fn(event);
    },
  };
  return { win, reloads, replaced, listeners };
}

const ORIGIN = 'https://app.example';
const abs = (url: string) => (url.startsWith('/') ? `${ORIGIN}${url}` : url);

function scriptError(src: string): Event {
  const el = document.createElement('script');
  el.src = abs(src);
  const event = new Event('error');
  Object.defineProperty(event, 'target', { value: el });
  return event;
}

function linkError(rel: string, href: string): Event {
  const el = document.createElement('link');
  el.rel = rel;
  el.href = abs(href);
  const event = new Event('error');
  Object.defineProperty(event, 'target', { value: el });
  return event;
}

function setup(options: { storage?: () => StorageLike | null; start?: number } = {}) {
  const fw = fakeWindow();
  const storage = new MemoryStorage();
  let now = options.start ?? 1_700_000_000_000;
  const onBlocked = vi.fn();
  const guard = createReloadGuard({
    win: fw.win,
    storage: options.storage ?? (() => storage),
    now: () => now,
    onBlocked,
  });
  return {
    ...fw,
    storage,
    guard,
    onBlocked,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    /** A fresh page load of the same tab: a new guard instance, same storage. */
    reloadPage: () => {
      const next = fakeWindow();
      const g = createReloadGuard({ win: next.win, storage: options.storage ?? (() => storage), now: () => now, onBlocked });
      return { ...next, guard: g };
    },
  };
}

describe('reload guard', () => {
  it('reloads once with a cache-busting parameter on the first failed core asset', () => {
    const t = setup();
    t.guard.install();
    t.win.dispatch('error', scriptError('https://app.example/assets/OpsApp-abc123.js'));
    expect(t.reloads).toHaveLength(1);
    const url = new URL(t.reloads[0] ?? '');
    expect(url.searchParams.get(RELOAD_PARAM)).toBe(String(t.now()));
    expect(url.pathname).toBe('/requests/abc');
    expect(url.searchParams.get('tab')).toBe('1');
    expect(url.hash).toBe('#top');
    expect(t.storage.getItem(RELOAD_STORAGE_KEY)).toBe(String(t.now()));
    expect(t.guard.state).toBe('reloading');
    expect(t.onBlocked).not.toHaveBeenCalled();
  });

  it('makes one decision per page even when several assets fail', () => {
    const t = setup();
    t.guard.install();
    t.win.dispatch('error', scriptError('/assets/a-1.js'));
    t.win.dispatch('error', linkError('stylesheet', '/assets/a-1.css'));
    t.win.dispatch('vite:preloadError', new Event('vite:preloadError'));
    expect(t.reloads).toHaveLength(1);
  });

  it('shows the button instead of a second automatic reload within 30 s', () => {
    const t = setup();
    t.guard.reportFailure({ kind: 'chunk' });
    expect(t.reloads).toHaveLength(1);

    t.advance(RELOAD_WINDOW_MS - 1);
    const page2 = t.reloadPage();
    page2.guard.install();
    page2.win.dispatch('vite:preloadError', new Event('vite:preloadError'));
    expect(page2.reloads).toHaveLength(0);
    expect(page2.guard.state).toBe('blocked');
    expect(t.onBlocked).toHaveBeenCalledTimes(1);

    // further failures on the blocked page neither reload nor show the button twice
    page2.win.dispatch('error', scriptError('/assets/x.js'));
    expect(page2.reloads).toHaveLength(0);
    expect(t.onBlocked).toHaveBeenCalledTimes(1);
  });

  it('allows an automatic reload again once 30 s have passed', () => {
    const t = setup();
    t.guard.reportFailure({ kind: 'script' });
    t.advance(RELOAD_WINDOW_MS);
    const page2 = t.reloadPage();
    expect(page2.guard.reportFailure({ kind: 'chunk' })).toBe('reloading');
    expect(page2.reloads).toHaveLength(1);
    expect(t.storage.getItem(RELOAD_STORAGE_KEY)).toBe(String(t.now()));
  });

  it('shows the button and does not reload when sessionStorage throws (private mode)', () => {
    const throwing = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    const t = setup({ storage: throwing });
    t.guard.install();
    t.win.dispatch('error', scriptError('/assets/index-1.js'));
    expect(t.reloads).toHaveLength(0);
    expect(t.guard.state).toBe('blocked');
    expect(t.onBlocked).toHaveBeenCalledTimes(1);
  });

  it('shows the button when writing the reload time fails or does not stick', () => {
    const quota: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const t1 = setup({ storage: () => quota });
    expect(t1.guard.reportFailure({ kind: 'chunk' })).toBe('blocked');
    expect(t1.reloads).toHaveLength(0);

    const forgetful: StorageLike = { getItem: () => null, setItem: () => undefined };
    const t2 = setup({ storage: () => forgetful });
    expect(t2.guard.reportFailure({ kind: 'chunk' })).toBe('blocked');
    expect(t2.reloads).toHaveLength(0);

    const t3 = setup({ storage: () => null });
    expect(t3.guard.reportFailure({ kind: 'chunk' })).toBe('blocked');
  });

  it('ignores runtime errors, images and assets of other origins', () => {
    const t = setup();
    t.guard.install();
    const runtime = new Event('error');
    Object.defineProperty(runtime, 'target', { value: t.win });
    t.win.dispatch('error', runtime);
    const img = document.createElement('img');
    const imgEvent = new Event('error');
    Object.defineProperty(imgEvent, 'target', { value: img });
    t.win.dispatch('error', imgEvent);
    t.win.dispatch('error', scriptError('https://cdn.other.example/lib.js'));
    t.win.dispatch('error', linkError('icon', '/favicon.ico'));
    expect(t.reloads).toHaveLength(0);
    expect(t.guard.state).toBe('idle');
  });

  it('listens in the capture phase, for vite:preloadError, and can be removed', () => {
    const t = setup();
    const uninstall = t.guard.install();
    expect(t.listeners.get('error')?.[0]?.capture).toBe(true);
    expect(t.listeners.get('vite:preloadError')).toHaveLength(1);
    uninstall();
    t.win.dispatch('error', scriptError('/assets/a.js'));
    expect(t.reloads).toHaveLength(0);
  });

  it('removes the cache-busting parameter from the address bar after the reload', () => {
    const fw = fakeWindow(`https://app.example/ops?${RELOAD_PARAM}=123&x=1`);
    createReloadGuard({ win: fw.win, storage: () => new MemoryStorage(), now: () => 1 }).install();
    expect(fw.replaced).toEqual(['https://app.example/ops?x=1']);
  });

  it('refresh (the button) always reloads, cache-busted, without touching the stored time', () => {
    const t = setup();
    t.storage.setItem(RELOAD_STORAGE_KEY, String(t.now()));
    t.guard.refresh();
    expect(t.reloads).toHaveLength(1);
    expect(new URL(t.reloads[0] ?? '').searchParams.has(RELOAD_PARAM)).toBe(true);
    expect(t.storage.getItem(RELOAD_STORAGE_KEY)).toBe(String(t.now()));
  });
});

describe('pure helpers', () => {
  it('mayAutoReload', () => {
    expect(mayAutoReload(null, 1000)).toBe(true);
    expect(mayAutoReload('', 1000)).toBe(true);
    expect(mayAutoReload('garbage', 1000)).toBe(true);
    expect(mayAutoReload('1000', 1000 + 29_999)).toBe(false);
    expect(mayAutoReload('1000', 1000 + 30_000)).toBe(true);
    expect(mayAutoReload('99999', 1000)).toBe(false); // a future time: do not risk a loop
    expect(mayAutoReload(new Error('blocked'), 1000)).toBe(false);
  });

  it('cache-busting URLs', () => {
    expect(cacheBustedUrl('https://a.example/x?y=1#h', 5)).toBe('https://a.example/x?y=1&_r=5#h');
    expect(cacheBustedUrl('https://a.example/x?_r=1', 5)).toBe('https://a.example/x?_r=5');
    expect(withoutCacheBust('https://a.example/x')).toBeNull();
  });

  it('classifies asset failures', () => {
    const page = 'https://app.example/';
    expect(assetFailureOf(scriptError('/assets/a.js'), page)).toEqual({ kind: 'script', url: 'https://app.example/assets/a.js' });
    expect(assetFailureOf(linkError('stylesheet', '/assets/a.css'), page)?.kind).toBe('stylesheet');
    expect(assetFailureOf(linkError('modulepreload', '/assets/b.js'), page)?.kind).toBe('script');
    expect(assetFailureOf(scriptError('https://evil.example/a.js'), page)).toBeNull();
  });
});

describe('refresh banner', () => {
  it('shows one "Refresh page" button that refreshes', () => {
    const onRefresh = vi.fn();
    showRefreshBanner(document, onRefresh);
    showRefreshBanner(document, onRefresh);
    const buttons = document.querySelectorAll<HTMLButtonElement>('[data-testid="refresh-page"]');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.textContent).toBe('Refresh page');
    expect(document.querySelector('[data-testid="refresh-banner"]')?.getAttribute('role')).toBe('alert');
    buttons[0]?.click();
    expect(onRefresh).toHaveBeenCalledTimes(1);
    document.getElementById('cf-refresh-banner')?.remove();
  });
});

describe('lazy route chunks', () => {
  it('a failed chunk import is reported to the guard and rethrown as ChunkLoadError', async () => {
    const sink = { reportFailure: vi.fn(() => 'reloading' as const) };
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/OpsApp-old.js'));
    await expect(loadWithGuard(failing, sink)).rejects.toBeInstanceOf(ChunkLoadError);
    expect(sink.reportFailure).toHaveBeenCalledWith({ kind: 'chunk' });
    await expect(loadWithGuard(() => Promise.resolve({ default: 1 }), sink)).resolves.toEqual({ default: 1 });
    expect(sink.reportFailure).toHaveBeenCalledTimes(1);
  });
});
