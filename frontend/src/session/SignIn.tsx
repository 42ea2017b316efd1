import { useState } from 'react';
import type { ApiFailure } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { PageHeading } from '../components/PageHeading';
import type { DemoUser } from '../api/types';
import { useSession } from './session';

/** Shown on 401: the sandbox's demo sign-in when it is available, else a pointer to the login. */
export function SignIn({ demoUsers }: { demoUsers: DemoUser[] | null }) {
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);

  async function signInAs(user: string) {
    setBusy(user);
    setError(null);
    const failure = await session.signIn(user);
    setBusy(null);
    if (failure) setError(failure);
  }

  return (
    <section className="panel sign-in" data-testid="sign-in">
      <PageHeading>Sign in</PageHeading>
      {demoUsers === null ? (
        <>
          <p>You are not signed in. Changeflow uses your organisation&apos;s login: open it again through the usual address.</p>
          <button type="button" onClick={() => void session.refresh()}>
            Try again
          </button>
        </>
      ) : (
        <>
          <p>This is the sandbox. Sign in as one of the demo users:</p>
          {demoUsers.length === 0 ? <p className="muted">No demo users are configured.</p> : null}
          <ul className="demo-users">
            {demoUsers.map((u) => (
              <li key={u.user}>
                <button
                  type="button"
                  onClick={() => void signInAs(u.user)}
                  disabled={busy !== null}
                  data-testid={`sign-in-as-${u.user}`}
                >
                  Sign in as {u.label}
                  {u.role ? <span className="button-note"> ({u.role})</span> : null}
                </button>
              </li>
            ))}
          </ul>
          <p className="visually-hidden" role="status" aria-live="polite">
            {busy ? `Signing in as ${busy}…` : ''}
          </p>
        </>
      )}
      {error ? <ErrorNotice error={error} title="Sign-in failed." /> : null}
    </section>
  );
}
