import {
  GUARD_GLOBAL,
  createReloadGuard,
  type GuardWindow,
  type ReloadGuard,
  type StorageLike,
} from './reloadGuard';
import { showRefreshBanner } from './refreshBanner';

type HostWindow = GuardWindow & {
  readonly document: Document;
  readonly sessionStorage: StorageLike;
  [GUARD_GLOBAL]?: ReloadGuard;
};

/**
 * Installs the release guard on a real window once (the inline early script normally did it
 * already; the app bundle then reuses that instance) and returns it.
 */
export function installReleaseGuard(win: Window): ReloadGuard {
  const host = win as unknown as HostWindow;
  const existing = host[GUARD_GLOBAL];
  if (existing) return existing;
  const guard: ReloadGuard = createReloadGuard({
    win: host,
    storage: () => host.sessionStorage,
    now: () => Date.now(),
    onBlocked: () => showRefreshBanner(host.document, () => guard.refresh()),
  });
  guard.install();
  host[GUARD_GLOBAL] = guard;
  return guard;
}
