/**
 * Callbar's background (a service worker in Chromium, an event page in Firefox): the only part
 * that talks to Callbar. It answers its own content scripts (status: the region and the words
 * for the page; dial: passed to Callbar), offers "Call with Callbar" on selected text, and shows
 * Callbar's answer to a dial in a notification, outside the page.
 */
import type { HostAnswer } from '../../../src-main/core/browser/host-protocol';
import { api, MAX_LINK, type ContentRequest, type PageStatus } from '../extension-api';
import { askHost } from './host-port';
import { selectionLink } from './selection-link';

const MENU_ID = 'callbar-call';
/** Callbar's answer is kept this long (a region changed in Callbar applies to pages after it). */
const STATUS_LIFETIME_MS = 60_000;

let status: { answer: Promise<HostAnswer>; at: number } | undefined;

function hostStatus(): Promise<HostAnswer> {
  if (!status || Date.now() - status.at > STATUS_LIFETIME_MS) {
    const answer = askHost({ type: 'status' });
    status = { answer, at: Date.now() };
    void answer.then((value) => {
      if (value.ok && value.type === 'status') {
        void api.contextMenus.update(MENU_ID, { title: value.labels.menu }).catch(() => undefined);
      } else if (status?.answer === answer) {
        // Not there (yet): the next page asks again (`callbar browser install` may come meanwhile).
        status = undefined;
      }
    });
  }
  return status.answer;
}

async function pageStatus(): Promise<PageStatus> {
  const answer = await hostStatus();
  return answer.ok && answer.type === 'status'
    ? { ok: true, region: answer.region, label: answer.labels.call }
    : { ok: false };
}

function notify(message: string): void {
  void api.notifications
    .create({ type: 'basic', iconUrl: api.runtime.getURL('icon.png'), title: 'Callbar', message })
    .catch(() => undefined);
}

async function dial(link: string): Promise<void> {
  const answer = await askHost({ type: 'dial', link });
  if ('message' in answer) notify(answer.message);
}

api.runtime.onMessage.addListener((message: ContentRequest, sender, sendResponse) => {
  // Only this extension's own content scripts, in a tab (never another extension or a page).
  if (sender.id !== api.runtime.id || !sender.tab) return false;
  if (message?.type === 'status') {
    void pageStatus().then(sendResponse);
    return true;
  }
  if (
    message?.type === 'dial' &&
    typeof message.link === 'string' &&
    message.link.length <= MAX_LINK
  ) {
    void dial(message.link);
  }
  return false;
});

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({
    id: MENU_ID,
    title: api.i18n.getMessage('menuTitle'),
    contexts: ['selection'],
  });
  void hostStatus();
});

api.contextMenus.onClicked.addListener((info) => {
  if (info.menuItemId !== MENU_ID || !info.selectionText) return;
  void (async () => {
    const answer = await hostStatus();
    const region = answer.ok && answer.type === 'status' ? answer.region : 'US';
    const link = selectionLink(info.selectionText!, region);
    if (!link) return notify(api.i18n.getMessage('noNumber'));
    await dial(link);
  })();
});
