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
      <FilterSelect
        id={`${idPrefix}-status`}
        label="Status"
        value={query.status ?? ''}
        options={Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))}
        onChange={(value) => onChange({ status: value || null })}
      />
      <FilterSelect
        id={`${idPrefix}-target`}
        label="Target"
        value={query.target ?? ''}
        options={targetKeys.map((key) => ({ value: key, label: known.find((t) => t.key === key)?.name ?? key }))}
        onChange={(value) => onChange({ target: value || null })}
      />
    </div>
  );
}

/** One labelled filter: "Any" (the empty value) first, then `options`; the id is also the test id. */
export function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} data-testid={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
