import { describe, expect, it } from 'vitest';
import { normalizeDemoUsers } from './endpoints';

describe('normalizeDemoUsers', () => {
  it('reads the sandbox directory shape {account, employeeId, email, role}', () => {
    expect(
      normalizeDemoUsers([
        { account: 'alice', employeeId: 'E1001', email: 'alice@corp.example', role: 'requester' },
        { account: 'otto', employeeId: 'E1004', email: 'otto@corp.example', role: 'operator' },
      ]),
    ).toEqual([
      { user: 'alice', label: 'alice', role: 'requester' },
      { user: 'otto', label: 'otto', role: 'operator' },
    ]);
  });

  it('accepts plain names, a `users` wrapper, and skips entries without a name', () => {
    expect(normalizeDemoUsers(['bob'])).toEqual([{ user: 'bob', label: 'bob', role: null }]);
    expect(normalizeDemoUsers({ users: [{ user: 'amy', roles: ['approver'] }, { nope: true }, 3] })).toEqual([
      { user: 'amy', label: 'amy', role: 'approver' },
    ]);
    expect(normalizeDemoUsers(null)).toEqual([]);
  });
});
