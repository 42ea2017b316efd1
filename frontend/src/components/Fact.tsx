import type { ReactNode } from 'react';

/** One entry of a `<dl className="facts">`: the term and its value (`testId` marks the value for tests). */
export function Fact({ term, testId, children }: { term: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
