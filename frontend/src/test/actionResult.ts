import { click, flush, type Rendered } from './render';

/** Presses the action button `button`, lets the answer settle and returns the outcome paragraph inside `result`. */
export async function pressAction(r: Rendered, button: string, result: string): Promise<HTMLElement> {
  await click(r.byTestId(button));
  await flush();
  return r.byTestId(result).querySelector('p')!;
}
