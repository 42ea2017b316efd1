/**
 * Routing is react-router's (declarative mode, `<BrowserRouter>` in main.tsx): the server serves index.html
 * for every app path (/, /requests/:id, /records, /bindings, /inbox, /console...), the client picks the page.
 * This module is the app's one import of it, plus what the app adds: links that scroll to the top like a page
 * load, and whether the current page was reached by an in-app navigation (the heading then takes the focus).
 */
import { useEffect } from 'react';
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
  type LinkProps as RouterLinkProps,
  type NavigateFunction,
  type NavLinkProps as RouterNavLinkProps,
} from 'react-router';

export { BrowserRouter, MemoryRouter, Route, Routes, useParams } from 'react-router';
export { useLocation, useNavigate, useSearchParams, type NavigateFunction };

export type LinkProps = RouterLinkProps & { to: string };

/** A real link (keyboard, middle click and "open in new tab" work) that navigates in place. */
export function Link(props: LinkProps) {
  return <RouterLink {...props} />;
}

/** A nav link that marks the current page with aria-current="page" (`exact`: this path only, not below it). */
export function NavLink({ exact, ...rest }: Omit<RouterNavLinkProps, 'end'> & { to: string; exact?: boolean }) {
  return <RouterNavLink end={exact} {...rest} />;
}

/**
 * True when the page shown was reached by a navigation inside the app (a link, back or forward), false on the
 * page load: react-router names the location it started with `default`.
 */
export function useReachedInApp(): boolean {
  return useLocation().key !== 'default';
}

/** A new page (not back or forward, not a change of the same page's query) starts at the top, as a page load does. */
export function ScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type === 'PUSH') window.scrollTo?.(0, 0);
  }, [pathname, type]);
  return null;
}
