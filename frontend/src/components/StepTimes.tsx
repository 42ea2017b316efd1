import type { RequestView } from '../api/types';
import { useNow } from '../logic/hooks';
import { stepTimes } from '../logic/stepTimes';
import { formatSpan } from '../logic/wait';

/** "In this step for 12 min" and the time spent in each earlier step, from the request's timeline. */
export function StepTimes({ view }: { view: Pick<RequestView, 'status' | 'timeline'> }) {
  const now = useNow(30_000);
  const times = stepTimes(view, now);
  if (times.length === 0) return null;
  const current = times.find((t) => t.current);
  return (
    <section aria-labelledby="step-times-title" className="step-times" data-testid="step-times">
      {current && current.ms !== null ? (
        <p className="wait" data-testid="in-this-step">
          In this step ({current.label}) for {formatSpan(current.ms)}.
        </p>
      ) : null}
      <details>
        <summary id="step-times-title">Time in each step</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="num">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {times.map((t) => (
              <tr key={`${t.status}-${t.from}`} data-testid="step-time" data-status={t.status} data-current={t.current ? 'true' : 'false'}>
                <th scope="row">{t.label}</th>
                <td className="num">{t.ms === null ? 'final' : `${formatSpan(t.ms)}${t.current ? ' so far' : ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
