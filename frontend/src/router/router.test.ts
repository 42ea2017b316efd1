import { describe, expect, it } from 'vitest';
import { matchPath } from './router';

describe('matchPath', () => {
  it('matches fixed and parameterised paths', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/records', '/records/')).toEqual({});
    expect(matchPath('/requests/:id', '/requests/abc%2Fdef')).toEqual({ id: 'abc/def' });
    expect(matchPath('/ops/operations/:id', '/ops/operations/x')).toEqual({ id: 'x' });
    expect(matchPath('/requests/:id', '/requests')).toBeNull();
    expect(matchPath('/requests/:id', '/requests/a/b')).toBeNull();
    expect(matchPath('/records', '/bindings')).toBeNull();
    expect(matchPath('/requests/:id', '/requests/%E0%A4%A')).toBeNull();
  });
});
