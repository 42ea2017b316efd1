/**
 * Browser notifications for a followed request: asked for only on a person's click, shown when the request
 * reaches a final state or needs the person, and only while the page is not in front of them.
 */
import type { RequestView } from '../api/types';
import { isFinished } from './polling';
import { statusLabel } from './timeline';

export type NotifyPermission = 'default' | 'granted' | 'denied' | 'unsupported';

/** What the browser allows now ('unsupported' without the Notification API). */
export function notificationPermission(win: Window = window): NotifyPermission {
  const api = (win as { Notification?: typeof Notification }).Notification;
  return api ? (api.permission as NotifyPermission) : 'unsupported';
}

/** Asks the browser; call it from a click handler only (browsers ignore or penalise other prompts). */
export async function askNotificationPermission(win: Window = window): Promise<NotifyPermission> {
  const api = (win as { Notification?: typeof Notification }).Notification;
  if (!api) return 'unsupported';
  try {
    return (await api.requestPermission()) as NotifyPermission;
  } catch {
    return notificationPermission(win);
  }
}

export interface Notice {
  title: string;
  body: string;
}

/**
 * What to tell the person about the change from `previous` to `next`, or null: nothing on the first answer (the
 * page shows it), nothing when neither the state nor the hint changed.
 */
export function noticeFor(previous: RequestView | null, next: RequestView): Notice | null {
  if (!previous) return null;
  const statusChanged = previous.status !== next.status;
  const hintChanged = (previous.hint?.code ?? null) !== (next.hint?.code ?? null);
  if (!statusChanged && !hintChanged) return null;
  const what = `${next.targetKey} for ${next.subjectId}`;
  if (statusChanged && isFinished(next) && !isFinished(previous)) {
    const title = next.status === 'VALIDATED' ? 'Your request is in effect' : `Your request: ${statusLabel(next.status)}`;
    return { title, body: `${what}. ${next.hint?.message ?? ''}`.trim() };
  }
  if (next.hint?.code === 'CONTACT_MAINTAINERS' && (hintChanged || statusChanged)) {
    return { title: 'Your request needs you', body: `${what}: ${next.hint.message}` };
  }
  return null;
}

/** Whether the person is looking at this page right now (then the page itself says it). */
export function pageInFront(doc: Document = document): boolean {
  return doc.visibilityState === 'visible' && (typeof doc.hasFocus !== 'function' || doc.hasFocus());
}

/** Shows `notice` for request `operationId` (one per request: a newer one replaces it). */
export function showNotice(notice: Notice, operationId: string, win: Window = window): void {
  const api = (win as { Notification?: typeof Notification }).Notification;
  if (!api || api.permission !== 'granted') return;
  try {
    new api(notice.title, { body: notice.body, tag: `changeflow-${operationId}` });
  } catch {
    // Some browsers allow notifications only from a service worker; the page still shows the change.
  }
}
