import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, render, type Rendered } from '../test/render';
import { HintBox } from './HintBox';

let r: Rendered | null = null;
afterEach(async () => {
  await r?.unmount();
  r = null;
});

describe('HintBox', () => {
  it.each([
    ['KEEP_WAITING', 'You can keep waiting', 'can recover'],
    ['CONTACT_MAINTAINERS', 'Contact the maintainers', 'waiting will not fix'],
    ['CAN_REAPPLY', 'You can apply again', 'ended without taking effect'],
    ['NONE', 'No action needed', 'being processed'],
  ])('renders %s with its title and the server message', async (code, title, message) => {
    r = await render(<HintBox hint={{ code, message: `Server says: ${message}.` }} onApplyAgain={() => undefined} />);
    const hint = r.byTestId('hint');
    expect(hint.dataset.hint).toBe(code);
    expect(hint.textContent).toContain(title);
    expect(r.byTestId('hint-message').textContent).toBe(`Server says: ${message}.`);
    expect(r.queryByTestId('apply-again') !== null).toBe(code === 'CAN_REAPPLY');
  });

  it('"Apply again" calls back', async () => {
    const onApplyAgain = vi.fn();
    r = await render(<HintBox hint={{ code: 'CAN_REAPPLY', message: 'm' }} onApplyAgain={onApplyAgain} />);
    await click(r.byTestId('apply-again'));
    expect(onApplyAgain).toHaveBeenCalledTimes(1);
  });

  it('renders nothing without a hint and the code of an unknown hint', async () => {
    r = await render(<HintBox hint={null} />);
    expect(r.queryByTestId('hint')).toBeNull();
    await r.unmount();
    r = await render(<HintBox hint={{ code: 'SOMETHING_NEW', message: 'Hello' }} />);
    expect(r.byTestId('hint').textContent).toContain('SOMETHING_NEW');
  });
});
