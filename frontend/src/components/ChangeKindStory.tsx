import type { RequestView } from '../api/types';
import { formatDate, formatDateTime } from '../logic/format';
import { removalAsksApproval } from '../logic/timeline';
import { Link } from '../router/router';

/** Page titles by kind (docs/api.md: kind GRANT, RENEWAL, EXPIRY, REVOCATION). */
const TITLES: Record<string, string> = {
  GRANT: 'Request',
  RENEWAL: 'Renewal',
  EXPIRY: 'Expiry of access',
  REVOCATION: 'Removal of access',
};

export function kindTitle(kind: string | undefined): string {
  return (kind && TITLES[kind]) || 'Request';
}

export function isRemoval(view: Pick<RequestView, 'kind'>): boolean {
  return view.kind === 'EXPIRY' || view.kind === 'REVOCATION';
}

/** Why the line is removed, told from the removal's cause (EXPIRED, GIVEN_UP, REVOKED). */
export function removalWhy(view: RequestView): string {
  const by = view.removal?.by ?? view.requester;
  const when = formatDateTime(view.createdAt);
  switch (view.removal?.cause ?? (view.kind === 'EXPIRY' ? 'EXPIRED' : undefined)) {
    case 'EXPIRED':
      return view.expiresAt ? `The grant expired at ${formatDateTime(view.expiresAt)}.` : 'The grant expired.';
    case 'GIVEN_UP':
      return `Given up by ${by} on ${when}.`;
    case 'REVOKED':
      return `Revoked by the operator ${by} on ${when}.`;
    default:
      return `Given up or revoked by ${by} on ${when}.`;
  }
}

/** What happens next to a removal in its current state. */
export function removalNext(view: RequestView): string {
  switch (view.status) {
    case 'APPROVAL_SENDING':
    case 'APPROVAL_SENT':
    case 'APPROVAL_FAILED':
      return 'The removals of this target need the approval system: an approver decides first. Approved, the next removal round of the target\u2019s grant file takes the line out; not approved, the access stays in effect. Until then the access stays in effect.';
    case 'REMOVAL_REJECTED':
      return 'The removal was not approved (rejected, withdrawn, or not decided in time): the access stays in effect and its line stays in the grant file. The maintainers decide what happens next (an operator can revoke the grant, its holder can give it up).';
    case 'BATCH_WAITING':
      return removalAsksApproval(view)
        ? 'Approved: the next removal round of the target\u2019s grant file takes this line into a removal merge request, which is checked, merged and deployed like any change. Until the deployment confirms it, the access stays in effect.'
        : 'Waiting for the next removal round of the target\u2019s grant file. Until the deployment confirms it, the access stays in effect.';
    case 'EXPIRING':
    case 'REVOKING':
      return 'The next removal round of the target\u2019s grant file takes this line into a removal merge request (no approval is asked), which is checked, merged and deployed like any change. Until the deployment confirms it, the access stays in effect.';
    case 'BATCHED':
      return 'The removal merge request is being checked and merged. Until the deployment confirms it, the access stays in effect.';
    case 'MERGED':
      return 'Merged; waiting for the deployment to confirm that the access is gone.';
    case 'DEPLOY_UNCONFIRMED':
    case 'DEPLOY_FAILED':
      return 'The removal is merged, but the deployment did not confirm it: the access may still be live. An operator checks the deployment and confirms the removal.';
    case 'HANDLE_FAILED':
    case 'CREATE_FAILED':
      return 'The removal failed, so the access is still in effect. The operators are told; they fix the cause and start the removal again (a removal is never closed).';
    case 'EXPIRED':
    case 'REVOKED':
      return `Done: the line is gone and the access has ended. ${view.subjectId} can apply for ${view.targetKey} again.`;
    case null:
      return 'A newer request for the same subject and target replaced this removal.';
    default:
      return 'The removal goes on through the workflow; see its progress below.';
  }
}

export interface ChangeKindStoryProps {
  view: RequestView;
  /** Where the grant named by previousGrant is shown (the requester's page or the console's); no link without it. */
  grantHref?: (operationId: string) => string;
}

/**
 * What a renewal or a removal is about, in words: for a removal what is being removed, why (expired at X, given up
 * by Y, revoked by the operator Z) and what happens next; for a renewal which grant it renews. Nothing for a grant.
 */
export function ChangeKindStory({ view, grantHref }: ChangeKindStoryProps) {
  const grant = view.previousGrant ? (
    grantHref ? (
      <Link to={grantHref(view.previousGrant)} data-testid="previous-grant">
        the grant in effect
      </Link>
    ) : (
      <span data-testid="previous-grant">
        the grant in effect (<code>{view.previousGrant}</code>)
      </span>
    )
  ) : (
    <>the grant in effect</>
  );
  if (view.kind === 'RENEWAL') {
    return (
      <section className="story" data-testid="change-story" data-kind="RENEWAL">
        <p data-testid="story-what">
          Renews {grant} of {view.subjectId} on <code>{view.targetKey}</code> with a new expiry (
          {view.expiresAt ? formatDate(view.expiresAt) : 'never'}): its line is rewritten once this renewal is approved,
          merged and deployed. Until then the earlier grant stays in effect until its own expiry.
        </p>
      </section>
    );
  }
  if (!isRemoval(view)) return null;
  return (
    <section
      className="story"
      aria-labelledby="story-title"
      data-testid="change-story"
      data-kind={view.kind}
      data-cause={view.removal?.cause ?? ''}
    >
      <h2 id="story-title">{view.kind === 'EXPIRY' ? 'This access expired' : 'This access is being removed'}</h2>
      <p data-testid="story-what">
        What is removed: the line of {view.subjectId} in the grant file of <code>{view.targetKey}</code>
        {view.expiresAt ? <> (granted until {formatDateTime(view.expiresAt)})</> : null}, from {grant}.
      </p>
      <p data-testid="story-why">Why: {removalWhy(view)}</p>
      <p data-testid="story-next">What happens next: {removalNext(view)}</p>
    </section>
  );
}
