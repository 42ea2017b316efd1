import { listMyDrift } from '../api/endpoints';
import { LIST_REFRESH_MS, useRefreshing } from '../logic/hooks';

/** What a drift item means for the person it concerns (docs/operations.md, "Drift"). */
const FOR_PEOPLE: Record<string, string> = {
  UNAPPROVED_LINE: 'has a line on main that nobody approved; an operator removes it or adopts it',
  ENDED_GRANT_LINE: 'still has the line of a grant that ended; it is being removed',
  MISSING_LINE: 'has a grant the service holds in effect, but its line is missing from main: the access may not work',
  EDITED_LINE: 'has a line on main that was edited by hand; an operator adopts or reverts it',
  NOT_A_GRANT: 'has text in the grant file that is not a grant',
  BASELINE: 'had a line on main before Changeflow managed this target; an operator decides about it',
};

/**
 * The drift that concerns me (GET /api/drift): where a grant file on main does not say what the service says about
 * my access, or the access of someone I asked for. Shows nothing when there is none or it could not be loaded
 * (it is information; my records are shown either way).
 */
export function MyDriftNotice() {
  const loaded = useRefreshing(['my-drift'], (signal) => listMyDrift(signal), LIST_REFRESH_MS);
  const items = Array.isArray(loaded.data) ? loaded.data : [];
  if (items.length === 0) return null;
  return (
    <section className="notice notice-warning" aria-labelledby="my-drift-title" data-testid="my-drift">
      <h2 id="my-drift-title">Main and the records disagree</h2>
      <ul>
        {items.map(({ item, asSubject }) => (
          <li key={item.id} data-testid="my-drift-item" data-kind={item.kind} data-as-subject={asSubject}>
            {asSubject ? 'Your access to ' : `The access of ${item.subjectId ?? 'someone'} (you asked for it) to `}
            <code>{item.targetKey}</code> {FOR_PEOPLE[item.kind] ?? 'disagrees with main'}
            {item.status === 'ACKNOWLEDGED' ? ' (an operator acknowledged it)' : ''}
            {item.status === 'REMOVING' ? ' (being removed)' : ''}
            {item.status === 'ADOPTED' ? ' (an operator asked for it as a grant; an approver decides)' : ''}.
          </li>
        ))}
      </ul>
    </section>
  );
}
