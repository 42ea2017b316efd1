import { statusLabel, statusTone } from '../logic/timeline';

export function StatusBadge({ status, testId }: { status: string | null; testId?: string }) {
  return (
    <span
      className={`badge badge-${statusTone(status)}`}
      data-testid={testId}
      data-status={status ?? 'REPLACED'}
      title={status ?? 'REPLACED'}
    >
      {statusLabel(status)}
    </span>
  );
}
