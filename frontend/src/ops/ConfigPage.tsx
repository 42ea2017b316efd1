import { getConfig } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { displayValue } from '../logic/format';
import { useLoad } from '../logic/hooks';

/** Every dynamic setting: raw value, resolved value, and the fallback rule applied. */
export function ConfigPage() {
  const [state, reload] = useLoad(['config'], (signal) => getConfig(signal));
  const rows = state.status === 'ok' && Array.isArray(state.data) ? state.data : [];
  return (
    <section className="panel" data-testid="ops-config-page">
      <PageHeading>Resolved configuration</PageHeading>
      <div className="toolbar">
        <button type="button" className="button-secondary" onClick={reload}>
          Reload
        </button>
      </div>
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load the configuration." onRetry={reload} /> : null}
      {rows.length > 0 ? (
        <DataTable columns={['Key', 'Raw value', 'Resolved', 'Rule applied', 'Source']} testId="ops-config">
          {rows.map((c) => (
            <tr key={c.key} data-testid="config-entry" data-key={c.key}>
              <th scope="row">
                <code>{c.key}</code>
              </th>
              <td>{c.raw === null || c.raw === undefined ? <span className="muted">(not set)</span> : <code>{c.raw === '' ? '""' : c.raw}</code>}</td>
              <td>
                <code>{displayValue(c.resolved)}</code>
              </td>
              <td>{c.rule ?? '—'}</td>
              <td data-testid="config-source">{c.source ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
