import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { forgetConditionalAnswers, type ApiFailure } from '../api/client';
import { getDemoUsers, getMe, sandboxLogin, sandboxLogout } from '../api/endpoints';
import type { DemoUser, Me } from '../api/types';

export const OPS_PERMISSIONS: readonly string[] = ['ops.operator', 'ops.admin'];

export type SessionState =
  | { phase: 'loading' }
  | { phase: 'signedIn'; me: Me }
  /** demoUsers: the sandbox sign-in is available (null: it is not, the login proxy is in charge). */
  | { phase: 'signedOut'; demoUsers: DemoUser[] | null }
  | { phase: 'error'; error: ApiFailure };

export interface Session {
  state: SessionState;
  refresh(): Promise<void>;
  signIn(user: string): Promise<ApiFailure | null>;
  signOut(): Promise<ApiFailure | null>;
}

const SessionContext = createContext<Session | null>(null);

export function canOperate(me: Me | null | undefined): boolean {
  return !!me && Array.isArray(me.permissions) && me.permissions.some((p) => OPS_PERMISSIONS.includes(p));
}

async function resolveSession(): Promise<SessionState> {
  const me = await getMe();
  if (me.ok) {
    const data = me.data;
    return {
      phase: 'signedIn',
      me: {
        account: data?.account ?? '',
        verified: data?.verified ?? false,
        permissions: Array.isArray(data?.permissions) ? data.permissions : [],
        sandbox: data?.sandbox === true,
        // Absent (an older server): unknown, so the form says nothing and the server decides.
        submissionsOpen: data?.submissionsOpen !== false,
      },
    };
  }
  if (me.status === 401) {
    const demo = await getDemoUsers();
    return { phase: 'signedOut', demoUsers: demo.ok ? demo.data : null };
  }
  return { phase: 'error', error: me };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ phase: 'loading' });

  const refresh = useCallback(async () => {
    setState(await resolveSession());
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const signIn = useCallback(
    async (user: string) => {
      const result = await sandboxLogin(user);
      if (!result.ok) return result;
      await refresh();
      return null;
    },
    [refresh],
  );

  const signOut = useCallback(async () => {
    const result = await sandboxLogout();
    if (!result.ok) return result;
    forgetConditionalAnswers(); // the next person starts without the last one's answers
    await refresh();
    return null;
  }, [refresh]);

  const value = useMemo<Session>(() => ({ state, refresh, signIn, signOut }), [state, refresh, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in person, or null (signed out, or rendered outside the session, e.g. in tests). */
export function useOptionalMe(): Me | null {
  const session = useContext(SessionContext);
  return session?.state.phase === 'signedIn' ? session.state.me : null;
}

/** The signed-in person; pages are only rendered once signed in. */
export function useMe(): Me {
  const { state } = useSession();
  if (state.phase !== 'signedIn') throw new Error('useMe before sign-in');
  return state.me;
}
