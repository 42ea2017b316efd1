import { NotFoundPage } from '../pages/NotFoundPage';
import { NavLink, Route, Routes, useParams } from '../router/router';
import { AuditPage } from './AuditPage';
import { BatchesPage } from './BatchesPage';
import { ConfigPage } from './ConfigPage';
import { DriftPage } from './DriftPanel';
import { NotificationsPage } from './NotificationsPage';
import { OperationPage } from './OperationPage';
import { OperationsPage } from './OperationsPage';
import { OverviewPage } from './overview/OverviewPage';
import { consolePaths } from './paths';

function OperationRoute() {
  const { id } = useParams();
  return id ? <OperationPage key={id} operationId={id} /> : <NotFoundPage />;
}

/**
 * The operations console (one lazily loaded chunk). Reaching it needs ops.operator or ops.admin;
 * the server decides, and its 401/403 answers are shown as they are. It opens on the overview.
 */
export default function OpsApp() {
  const page = (
    <Routes>
      <Route index element={<OverviewPage />} />
      <Route path="operations/:id" element={<OperationRoute />} />
      <Route path="stuck" element={<OperationsPage />} />
      <Route path="operations" element={<OperationsPage />} />
      <Route path="batches" element={<BatchesPage />} />
      <Route path="config" element={<ConfigPage />} />
      <Route path="drift" element={<DriftPage />} />
      <Route path="audit" element={<AuditPage />} />
      <Route path="notifications" element={<NotificationsPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
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
        <NavLink to={consolePaths.drift}>Drift</NavLink>
        <NavLink to={consolePaths.notifications} data-testid="nav-ops-notifications">
          Notifications
        </NavLink>
        <NavLink to={consolePaths.audit} data-testid="nav-ops-audit">
          Audit export
        </NavLink>
      </nav>
      {page}
    </div>
  );
}
