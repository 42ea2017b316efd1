/**
 * The state of a list in its URL: page, status and target filters (`?page=2&status=MERGED&target=wiki-editors`),
 * so back, reload and a shared link show the same list. Defaults are left out of the URL; a value the URL cannot
 * mean (a page "x", an unknown status, a malformed target key) reads as no filter rather than a failed list.
 */
import { useCallback } from 'react';
import { useSearchParams } from '../router/router';
import { TERMINAL_STATUSES } from './polling';
import { STATUS_LABELS } from './timeline';

export interface ListQuery {
  /** zero-based; the URL's `page` is one-based, as people count */
  page: number;
  status: string | null;
  target: string | null;
}

export const EMPTY_LIST_QUERY: ListQuery = { page: 0, status: null, target: null };

const TARGET_KEY = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function isKnownStatus(status: string): boolean {
  return Object.hasOwn(STATUS_LABELS, status) || TERMINAL_STATUSES.has(status);
}

export function readListQuery(params: URLSearchParams): ListQuery {
  const pageText = params.get('page');
  const page = pageText !== null && /^[1-9][0-9]{0,5}$/.test(pageText) ? Number(pageText) - 1 : 0;
  const status = params.get('status')?.trim().toUpperCase() ?? '';
  const target = params.get('target')?.trim() ?? '';
  return {
    page,
    status: status !== '' && isKnownStatus(status) ? status : null,
    target: TARGET_KEY.test(target) ? target : null,
  };
}

/** `current` with `change` applied, back on the first page when a filter changed; other parameters are kept. */
export function writeListQuery(current: URLSearchParams, change: Partial<ListQuery>): URLSearchParams {
  const before = readListQuery(current);
  const next = { ...before, ...change };
  if (change.page === undefined && (next.status !== before.status || next.target !== before.target)) next.page = 0;
  const params = new URLSearchParams(current);
  const put = (name: string, value: string | null) => (value === null ? params.delete(name) : params.set(name, value));
  put('page', next.page > 0 ? String(next.page + 1) : null);
  put('status', next.status);
  put('target', next.target);
  return params;
}

/** The list's query from the URL, and a change that pushes a new history entry (so back returns to the last one). */
export function useListQuery(): [ListQuery, (change: Partial<ListQuery>) => void] {
  const [params, setParams] = useSearchParams();
  const query = readListQuery(params);
  const change = useCallback(
    (next: Partial<ListQuery>) => setParams((current) => writeListQuery(current, next)),
    [setParams],
  );
  return [query, change];
}
