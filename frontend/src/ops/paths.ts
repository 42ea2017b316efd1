/**
 * The operations console's client routes. They live under /console, not /ops: /ops/ is the server's
 * operations API, where a page load (a reload, a bookmark, the release guard's reload) never gets the
 * app's page (docs/api.md: SPA routes must not live under the API prefixes).
 */
export const CONSOLE = '/console';

export const consolePaths = {
  stuck: CONSOLE,
  operation: (operationId: string) => `${CONSOLE}/operations/${encodeURIComponent(operationId)}`,
  batches: `${CONSOLE}/batches`,
  config: `${CONSOLE}/config`,
} as const;

export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE || pathname.startsWith(`${CONSOLE}/`);
}
