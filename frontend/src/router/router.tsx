/**
 * A small History API router: the server serves index.html for every app path (/, /requests/:id,
 * /records, /bindings, /inbox, /ops...), the client picks the page.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

const CHANGE_EVENT = 'changeflow:navigate';

let navigations = 0;

/** How many in-app navigations (links, back/forward) happened since the page loaded. */
export function navigationCount(): number {
  return navigations;
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    navigations++;
  });
}

export interface Location {
  pathname: string;
  search: string;
  state: unknown;
}

let cached: Location | null = null;

function readLocation(): Location {
  const { pathname, search } = window.location;
  const state: unknown = window.history.state;
  if (cached && cached.pathname === pathname && cached.search === search && cached.state === state) return cached;
  cached = { pathname, search, state };
  return cached;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGE_EVENT, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGE_EVENT, listener);
  };
}

export function useLocation(): Location {
  return useSyncExternalStore(subscribe, readLocation, readLocation);
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export function navigate(to: string, options: NavigateOptions = {}): void {
  const state = options.state ?? null;
  if (options.replace) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
  navigations++;
  window.dispatchEvent(new Event(CHANGE_EVENT));
  window.scrollTo?.(0, 0);
}

export type RouteParams = Record<string, string>;

/** Matches `/requests/:id` against a pathname; null when it does not match. */
export function matchPath(pattern: string, pathname: string): RouteParams | null {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  const patternParts = trim(pattern).split('/');
  const pathParts = trim(pathname).split('/');
  if (patternParts.length !== pathParts.length) return null;
  const params: RouteParams = {};
  for (let i = 0; i < patternParts.length; i++) {
    const expected = patternParts[i] ?? '';
    const actual = pathParts[i] ?? '';
    if (expected.startsWith(':')) {
      if (actual === '') return null;
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  state?: unknown;
  children: ReactNode;
}

/** A real link (keyboard, middle click and "open in new tab" work) that navigates in place. */
export function Link({ to, state, onClick, children, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to, { state });
  };
  return (
    <a href={to} onClick={handleClick} {...rest}>
      {children}
    </a>
  );
}

/** A nav link that marks the current page with aria-current. */
export function NavLink({ to, exact, children, ...rest }: LinkProps & { exact?: boolean }) {
  const { pathname } = useLocation();
  const active = exact ? pathname === to : pathname === to || pathname.startsWith(`${to}/`);
  return (
    <Link to={to} aria-current={active ? 'page' : undefined} {...rest}>
      {children}
    </Link>
  );
}
