/**
 * The operations console's client routes. They live under /console, not /ops: /ops/ is the server's
 * operations API, where a page load (a reload, a bookmark, the release guard's reload) never gets the
 * app's page (docs/api.md: SPA routes must not live under the API prefixes).
 */
export const CONSOLE = '/console';

export const consolePaths = {
  overview: CONSOLE,
  stuck: `${CONSOLE}/stuck`,
  operation: (operationId: string) => `${CONSOLE}/operations/${encodeURIComponent(operationId)}`,
  batches: `${CONSOLE}/batches`,
  config: `${CONSOLE}/config`,
  drift: `${CONSOLE}/drift`,
  audit: `${CONSOLE}/audit`,
  notifications: `${CONSOLE}/notifications`,
} as const;

export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE || pathname.startsWith(`${CONSOLE}/`);
}

/** Query parameters the stuck-request list reads (and writes back when a search is run). */
export interface StuckQuery {
  status?: string;
  /** a target key: only this target's requests */
  target?: string;
  stuckForSeconds?: number;
}

/** The stuck-request list for `query`, e.g. `/console/stuck?status=APPROVAL_SENT&target=wiki-editors&stuckFor=0`. */
export function stuckList(query: StuckQuery): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.target) params.set('target', query.target);
  params.set('stuckFor', String(Math.max(0, Math.floor(query.stuckForSeconds ?? 0))));
  return `${consolePaths.stuck}?${params.toString()}`;
}

/** What a stuck-list URL asks for; null when it asks nothing (the form then waits for Find). */
export function readStuckQuery(search: string): StuckQuery | null {
  const params = new URLSearchParams(search);
  if (!params.has('status') && !params.has('stuckFor') && !params.has('target')) return null;
  const seconds = Number(params.get('stuckFor') ?? '0');
  return {
    status: params.get('status') || undefined,
    target: params.get('target') || undefined,
    stuckForSeconds: Number.isFinite(seconds) && seconds >= 0 ? Math.floor(seconds) : 0,
  };
}
