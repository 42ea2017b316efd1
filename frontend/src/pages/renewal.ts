import type { Binding } from '../api/types';
import { formatUntilDay } from '../logic/format';
import type { PrefillState } from './HomePage';

/** A grant in effect with an expiry can be renewed: a new request with another expiry (docs/api.md). */
export function renewable(b: Binding): b is Binding & { expiresAt: string } {
  return b.status === 'VALIDATED' && !!b.expiresAt;
}

/** The request form's state for renewing `b`: same target and subject, so the person only chooses another expiry. */
export function renewalState(b: Binding & { expiresAt: string }): PrefillState {
  return {
    prefill: {
      targetKey: b.targetKey,
      subjectId: b.subjectId,
      reason: `Renewal of the access in effect until ${formatUntilDay(b.expiresAt)}`,
    },
    renewing: { expiresAt: b.expiresAt },
  };
}
