import { PageHeading } from '../components/PageHeading';
import { Link } from '../router/router';

export function NotFoundPage() {
  return (
    <section className="panel" data-testid="not-found">
      <PageHeading>Page not found</PageHeading>
      <p>There is no page at this address.</p>
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </section>
  );
}
