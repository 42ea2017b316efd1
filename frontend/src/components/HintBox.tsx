import type { Hint } from '../api/types';

const TITLES: Record<string, string> = {
  KEEP_WAITING: 'You can keep waiting',
  CONTACT_MAINTAINERS: 'Contact the maintainers',
  CAN_REAPPLY: 'You can apply again',
  NONE: 'No action needed',
};

const TONES: Record<string, string> = {
  KEEP_WAITING: 'info',
  CONTACT_MAINTAINERS: 'warning',
  CAN_REAPPLY: 'info',
  NONE: 'neutral',
};

export interface HintBoxProps {
  hint: Hint | null;
  onApplyAgain?: () => void;
}

/** What the requester should do next (docs/api.md: hint KEEP_WAITING, CONTACT_MAINTAINERS, CAN_REAPPLY, NONE). */
export function HintBox({ hint, onApplyAgain }: HintBoxProps) {
  if (!hint) return null;
  const code = hint.code;
  return (
    <div className={`hint hint-${TONES[code] ?? 'neutral'}`} data-testid="hint" data-hint={code}>
      <p className="hint-title">{TITLES[code] ?? code}</p>
      {hint.message ? <p data-testid="hint-message">{hint.message}</p> : null}
      {code === 'CONTACT_MAINTAINERS' ? (
        <p className="hint-extra">Waiting will not fix this. Quote the request reference when you contact them.</p>
      ) : null}
      {code === 'CAN_REAPPLY' && onApplyAgain ? (
        <button type="button" onClick={onApplyAgain} data-testid="apply-again">
          Apply again
        </button>
      ) : null}
    </div>
  );
}
