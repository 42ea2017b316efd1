import { NotFoundPage } from '../pages/NotFoundPage';
import { Link, matchPath, NavLink, useLocation } from '../router/router';
import { BatchesPage } from './BatchesPage';
import { ConfigPage } from './ConfigPage';
import { OperationPage } from './OperationPage';
import { OperationsPage } from './OperationsPage';
import { CONSOLE, consolePaths } from './paths';

/**
 * The operations console (one lazily loaded chunk). Reaching it needs ops.operator or ops.admin;
 * the server decides, and its 401/403 answers are shown as they are.
 */
export default function OpsApp() {
  const { pathname } = useLocation();
  let page;
  const op = matchPath(`${CONSOLE}/operations/:id`, pathname);
  if (op?.id) page = <OperationPage key={op.id} operationId={op.id} />;
  else if (matchPath(CONSOLE, pathname) || matchPath(`${CONSOLE}/operations`, pathname)) page = <OperationsPage />;
  else if (matchPath(consolePaths.batches, pathname)) page = <BatchesPage />;
  else if (matchPath(consolePaths.config, pathname)) page = <ConfigPage />;
  else page = <NotFoundPage />;

  return (
    <div className="ops" data-testid="ops">
      <nav className="subnav" aria-label="Operations">
        <Link
          to={consolePaths.stuck}
          aria-current={pathname === CONSOLE || pathname.startsWith(`${CONSOLE}/operations`) ? 'page' : undefined}
        >
          Stuck requests
        </Link>
        <NavLink to={consolePaths.batches}>Batches</NavLink>
        <NavLink to={consolePaths.config}>Configuration</NavLink>
      </nav>
      {page}
    </div>
  );
}
