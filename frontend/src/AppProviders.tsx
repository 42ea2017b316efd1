import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

/**
 * TanStack Query as the data cache. No retries and no refetch on focus by default: the pages set their own
 * refetch policy (docs/frontend.md "Refreshing"), and a failed load shows its error with a Retry button.
 */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: 0, gcTime: 5 * 60_000 },
    },
  });
}

export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [own] = useState(() => client ?? newQueryClient());
  return <QueryClientProvider client={own}>{children}</QueryClientProvider>;
}
