import { describe, expect, it } from 'vitest';
import { newOperationId, UUID_PATTERN } from './operationId';

describe('newOperationId', () => {
  it('uses crypto.randomUUID when available', () => {
    expect(newOperationId({ randomUUID: () => '11111111-2222-4333-8444-555555555555' })).toBe('11111111-2222-4333-8444-555555555555');
    expect(newOperationId()).toMatch(UUID_PATTERN);
  });

  it('falls back to getRandomValues when randomUUID is missing or refuses (not a secure context)', () => {
    const id = newOperationId({
      randomUUID: () => {
        throw new Error('not secure');
      },
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => {
        if (a instanceof Uint8Array) a.fill(0xab);
        return a;
      },
    });
    expect(id).toMatch(UUID_PATTERN);
    expect(id).toBe('abababab-abab-4bab-abab-abababababab');
  });

  it('falls back to Math.random without any crypto, still a v4 UUID', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newOperationId(undefined)));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_PATTERN);
  });
});
