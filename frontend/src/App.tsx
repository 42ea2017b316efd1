import { Suspense, useState } from 'react';
import type { ApiFailure } from './api/client';
import { ErrorBoundary } from './components/ErrorBoundary';
import { ErrorNotice } from './components/ErrorNotice';
import { Loading } from './components/Loading';
import { BindingsPage } from './pages/BindingsPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { RecordsPage } from './pages/RecordsPage';
import { RequestPage } from './pages/RequestPage';
import { CONSOLE } from './ops/paths';
import { releaseGuard } from './release/guard';
import { lazyWithGuard } from './release/lazyWithGuard';
import { Link, NavLink, Route, Routes, ScrollToTopOnNavigation, useLocation, useParams } from './router/router';
import { canOperate, SessionProvider, useSession } from './session/session';
import { SignIn } from './session/SignIn';

// Lazily loaded route chunks: a release that removes them is the realistic failure the release
// guard recovers from.
const InboxPage = lazyWithGuard(() => import('./pages/InboxPage'), releaseGuard);
const OpsApp = lazyWithGuard(() => import('./ops/OpsApp'), releaseGuard);

function RequestRoute() {
  const { id } = useParams();
  return id ? <RequestPage key={id} operationId={id} /> : <NotFoundPage />;
}

function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<HomePage />} />
      <Route path="/requests/:id" element={<RequestRoute />} />
      <Route path="/records" element={<RecordsPage />} />
      <Route path="/bindings" element={<BindingsPage />} />
      <Route path="/inbox" element={<InboxPage />} />
      <Route path={`${CONSOLE}/*`} element={<OpsApp />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

function Shell() {
  const session = useSession();
  const { pathname } = useLocation();
  const [signOutError, setSignOutError] = useState<ApiFailure | null>(null);
  const { state } = session;
  const me = state.phase === 'signedIn' ? state.me : null;

  let content;
  if (state.phase === 'loading') content = <Loading label="Signing you in…" />;
  else if (state.phase === 'signedOut') content = <SignIn demoUsers={state.demoUsers} />;
  else if (state.phase === 'error')
    content = (
      <section className="panel">
        <h1 className="page-heading">Changeflow is not available</h1>
        <ErrorNotice error={state.error} onRetry={() => void session.refresh()} />
      </section>
    );
  else
    content = (
      <ErrorBoundary resetKey={pathname}>
        <Suspense fallback={<Loading label="Loading the page…" />}>
          <AppRoutes />
        </Suspense>
      </ErrorBoundary>
    );

  async function signOut() {
    setSignOutError(await session.signOut());
  }

  return (
    <>
      <ScrollToTopOnNavigation />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Changeflow
        </Link>
        {me ? (
          <nav className="main-nav" aria-label="Main">
            <NavLink to="/" exact>
              New request
            </NavLink>
            <NavLink to="/records">My records</NavLink>
            <NavLink to="/bindings">My access</NavLink>
            {me.sandbox ? (
              <NavLink to="/inbox" data-testid="nav-inbox">
                Approval inbox
              </NavLink>
            ) : null}
            {canOperate(me) ? (
              <NavLink to={CONSOLE} data-testid="nav-ops">
                Operations
              </NavLink>
            ) : null}
          </nav>
        ) : null}
        {me ? (
          <div className="user-box">
            <span data-testid="current-user">{me.account}</span>
            {me.sandbox ? (
              <button type="button" className="button-secondary" onClick={() => void signOut()} data-testid="sign-out">
                Sign out
              </button>
            ) : null}
          </div>
        ) : null}
      </header>
      {signOutError ? <ErrorNotice error={signOutError} title="Sign-out failed." /> : null}
      <main id="main" className="app-main" tabIndex={-1}>
        {content}
      </main>
    </>
  );
}

/** The app; it needs a router around it (main.tsx: `<BrowserRouter>`; the tests' `render` gives one). */
export function App() {
  return (
    <SessionProvider>
      <Shell />
    </SessionProvider>
  );
}
