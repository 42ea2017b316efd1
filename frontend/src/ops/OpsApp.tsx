import { NotFoundPage } from '../pages/NotFoundPage';
import { matchPath, NavLink, useLocation } from '../router/router';
import { BatchesPage } from './BatchesPage';
import { ConfigPage } from './ConfigPage';
import { OperationPage } from './OperationPage';
import { OperationsPage } from './OperationsPage';
import { OverviewPage } from './overview/OverviewPage';
import { CONSOLE, consolePaths } from './paths';

/**
 * The operations console (one lazily loaded chunk). Reaching it needs ops.operator or ops.admin;
 * the server decides, and its 401/403 answers are shown as they are. It opens on the overview.
 */
export default function OpsApp() {
  const { pathname } = useLocation();
  let page;
  const op = matchPath(`${CONSOLE}/operations/:id`, pathname);
  if (op?.id) page = <OperationPage key={op.id} operationId={op.id} />;
  else if (matchPath(CONSOLE, pathname)) page = <OverviewPage />;
  else if (matchPath(consolePaths.stuck, pathname) || matchPath(`${CONSOLE}/operations`, pathname)) page = <OperationsPage />;
  else if (matchPath(consolePaths.batches, pathname)) page = <BatchesPage />;
  else if (matchPath(consolePaths.config, pathname)) page = <ConfigPage />;
  else page = <NotFoundPage />;

  return (
    <div className="ops" data-testid="ops">
      <nav className="subnav" aria-label="Operations">
        <NavLink to={consolePaths.overview} exact data-testid="nav-ops-overview">
          Overview
        </NavLink>
        <NavLink to={consolePaths.stuck} data-testid="nav-ops-stuck">
          Stuck requests
        </NavLink>
        <NavLink to={consolePaths.batches}>Batches</NavLink>
        <NavLink to={consolePaths.config}>Configuration</NavLink>
      </nav>
      {page}
    </div>
  );
}
