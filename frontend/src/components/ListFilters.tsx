import { getTargets } from '../api/endpoints';
import type { Target } from '../api/types';
import { useLoad } from '../logic/hooks';
import type { ListQuery } from '../logic/listQuery';
import { STATUS_LABELS } from '../logic/timeline';

/**
 * The catalog's targets to filter by; `current` (a target in the URL that the catalog does not list, or not any
 * more) stays a choice, so the filter shows what the list is filtered by.
 */
export function useTargetChoices(current: string | null): { known: Target[]; targetKeys: string[] } {
  const [targets] = useLoad(['targets'], (signal) => getTargets(signal));
  const known = targets.status === 'ok' && Array.isArray(targets.data) ? targets.data : [];
  return { known, targetKeys: [...new Set([...known.map((t) => t.key), ...(current ? [current] : [])])] };
}

/** The status and target filters of a list; a change is written to the URL by `onChange`. */
export function ListFilters({
  query,
  onChange,
  idPrefix,
}: {
  query: ListQuery;
  onChange: (change: Partial<ListQuery>) => void;
  idPrefix: string;
}) {
  const { known, targetKeys } = useTargetChoices(query.target);
  return (
    <div className="inline-form" role="group" aria-label="Filters" data-testid={`${idPrefix}-filters`}>
      <div className="field">
        <label htmlFor={`${idPrefix}-status`}>Status</label>
        <select
          id={`${idPrefix}-status`}
          data-testid={`${idPrefix}-status`}
          value={query.status ?? ''}
          onChange={(e) => onChange({ status: e.target.value || null })}
        >
          <option value="">Any</option>
          {Object.entries(STATUS_LABELS).map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-target`}>Target</label>
        <select
          id={`${idPrefix}-target`}
          data-testid={`${idPrefix}-target`}
          value={query.target ?? ''}
          onChange={(e) => onChange({ target: e.target.value || null })}
        >
          <option value="">Any</option>
          {targetKeys.map((key) => (
            <option key={key} value={key}>
              {known.find((t) => t.key === key)?.name ?? key}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
