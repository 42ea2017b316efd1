import { NotFoundPage } from '../pages/NotFoundPage';
import { Link, matchPath, NavLink, useLocation } from '../router/router';
import { BatchesPage } from './BatchesPage';
import { ConfigPage } from './ConfigPage';
import { OperationPage } from './OperationPage';
import { OperationsPage } from './OperationsPage';

/**
 * The operations console (one lazily loaded chunk). Reaching it needs ops.operator or ops.admin;
 * the server decides, and its 401/403 answers are shown as they are.
 */
export default function OpsApp() {
  const { pathname } = useLocation();
  let page;
  const op = matchPath('/ops/operations/:id', pathname);
  if (op?.id) page = <OperationPage key={op.id} operationId={op.id} />;
  else if (matchPath('/ops', pathname) || matchPath('/ops/operations', pathname)) page = <OperationsPage />;
  else if (matchPath('/ops/batches', pathname)) page = <BatchesPage />;
  else if (matchPath('/ops/config', pathname)) page = <ConfigPage />;
  else page = <NotFoundPage />;

  return (
    <div className="ops" data-testid="ops">
      <nav className="subnav" aria-label="Operations">
        <Link to="/ops" aria-current={pathname === '/ops' || pathname.startsWith('/ops/operations') ? 'page' : undefined}>
          Stuck requests
        </Link>
        <NavLink to="/ops/batches">Batches</NavLink>
        <NavLink to="/ops/config">Configuration</NavLink>
      </nav>
      {page}
    </div>
  );
}
