import { describe, expect, it } from 'vitest';
import { flush, type, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { AuditPage, auditExportUrl } from './AuditPage';

const { render } = testSession({ at: '/console/audit' });
let r: Rendered | null = null;

describe('AuditPage', () => {
  it('offers both downloads for the last 30 days, the days included, as the server reads them', async () => {
    r = await render(<AuditPage />);
    await flush();
    const from = r.byTestId<HTMLInputElement>('audit-from').value;
    const to = r.byTestId<HTMLInputElement>('audit-to').value;
    expect(Date.parse(to) - Date.parse(from)).toBe(30 * 86_400_000);
    expect(r.byTestId<HTMLAnchorElement>('audit-download-jsonl').getAttribute('href')).toBe(
      `/ops/audit/grants?from=${from}&to=${to}&format=jsonl`,
    );
    expect(r.byTestId<HTMLAnchorElement>('audit-download-csv').getAttribute('href')).toBe(auditExportUrl(from, to, 'csv'));
    expect(r.byTestId('audit-download-csv').hasAttribute('download')).toBe(true);
  });

  it('offers nothing for a range whose first day is after its last', async () => {
    r = await render(<AuditPage />);
    await flush();
    await type(r.byTestId<HTMLInputElement>('audit-from'), '2026-12-31');
    await type(r.byTestId<HTMLInputElement>('audit-to'), '2026-12-01');
    await flush();
    expect(r.queryByTestId('audit-download-jsonl')).toBeNull();
    expect(r.byTestId('audit-invalid').textContent).toContain('the first not after the second');
  });
});
