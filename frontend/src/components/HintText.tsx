import type { Hint } from '../api/types';

const SHORT: Record<string, string> = {
  KEEP_WAITING: 'Keep waiting',
  CONTACT_MAINTAINERS: 'Contact the maintainers',
  CAN_REAPPLY: 'You can apply again',
  NONE: '—',
};

/** The hint in one short phrase (tables). */
export function HintText({ hint }: { hint: Hint | null | undefined }) {
  if (!hint) return <>—</>;
  return (
    <span data-hint={hint.code} title={hint.message}>
      {SHORT[hint.code] ?? hint.code}
    </span>
  );
}
