import { useEffect, useRef, type ReactNode } from 'react';
import { useReachedInApp } from '../router/router';

/**
 * The page's h1. After a client-side navigation it takes the focus, so keyboard and screen reader
 * users land on the new page (on the first page load the browser's own focus order is kept).
 */
export function PageHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const inApp = useReachedInApp();
  useEffect(() => {
    const el = ref.current;
    if (el && inApp && document.activeElement !== el) el.focus({ preventScroll: true });
    // once per page: a later change of the query (a filter) keeps the focus where the person is
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="page-heading">
      {children}
    </h1>
  );
}
