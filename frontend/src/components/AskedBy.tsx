import type { RequestView } from '../api/types';
import { useOptionalMe } from '../session/session';

/**
 * Issue 37: a request someone asked for another person shows who asked. The subject reads "Asked for you by bob" in
 * their records and on the request's page (docs/api.md: their list holds the requests asked for them); the requester
 * of their own request for someone else sees nothing extra (the subject is in its own column).
 */
export function AskedBy({ view }: { view: Pick<RequestView, 'requester' | 'subjectId'> }) {
  const me = useOptionalMe();
  if (view.requester === view.subjectId || (me !== null && me.account === view.requester)) return null;
  const forMe = me !== null && me.account === view.subjectId;
  return (
    <span className="muted asked-by" data-testid="asked-by">
      {forMe ? `Asked for you by ${view.requester}` : `Asked by ${view.requester}`}
    </span>
  );
}
