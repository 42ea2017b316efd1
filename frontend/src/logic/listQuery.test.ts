import { describe, expect, it } from 'vitest';
import { readListQuery, writeListQuery } from './listQuery';

const read = (search: string) => readListQuery(new URLSearchParams(search));
const write = (search: string, change: Parameters<typeof writeListQuery>[1]) =>
  writeListQuery(new URLSearchParams(search), change).toString();

describe('list query in the URL', () => {
  it('reads a one-based page, a status in any case and a target key', () => {
    expect(read('')).toEqual({ page: 0, status: null, target: null });
    expect(read('?page=3&status=merging&target=wiki-editors')).toEqual({ page: 2, status: 'MERGING', target: 'wiki-editors' });
    expect(read('?status=VALIDATED')).toEqual({ page: 0, status: 'VALIDATED', target: null });
  });

  it('reads what cannot be a page, a status or a target key as none', () => {
    expect(read('?page=0&status=DONE&target=Not%20a%20key')).toEqual({ page: 0, status: null, target: null });
    expect(read('?page=-1')).toEqual({ page: 0, status: null, target: null });
    expect(read('?page=1.5&target=../etc')).toEqual({ page: 0, status: null, target: null });
    expect(read('?page=9999999').page).toBe(0);
  });

  it('leaves defaults out, goes back to the first page when a filter changes, keeps other parameters', () => {
    expect(write('', { page: 1 })).toBe('page=2');
    expect(write('page=2', { page: 0 })).toBe('');
    expect(write('page=4&status=MERGED', { target: 'wiki-editors' })).toBe('status=MERGED&target=wiki-editors');
    expect(write('page=4&status=MERGED', { status: 'MERGED' })).toBe('page=4&status=MERGED');
    expect(write('status=MERGED&target=wiki-editors', { status: null })).toBe('target=wiki-editors');
    expect(write('stuckFor=60&page=2', { page: 2 })).toBe('stuckFor=60&page=3');
  });
});
