/**
 * `callbar native-host`'s services: the status the extension needs (the region numbers are read
 * in, the user's language and its words, read afresh each time so a change in Callbar applies on
 * the next page), and a dial through the same path as `callbar open-url`: the running Callbar's
 * link door first; with none running, this process opens the link with nobody to ask, so only a
 * link that needs no yes dials, and any other is refused with its reason.
 */
import { serveNativeHost, type HostServices } from '../core/browser/native-host';
import { knockLinkDoor } from '../core/desktop/link-door-knock';
import { CallbarError, describeError } from '../core/errors';
import { said, type Translate } from '../core/text/said';
import { cliTranslator } from './cli-locale';
import type { CommandContext } from './command';
import { withCalls } from './commands/call-commands';

type DialResult = Awaited<ReturnType<HostServices['dial']>>;

function refused(error: unknown, t: Translate): DialResult {
  const { code, message } = describeError(error, t);
  return { ok: false, code, message };
}

/** The link opened by this process: no window to ask in. */
async function dialHere(ctx: CommandContext, link: string, t: Translate): Promise<DialResult> {
  const outcome = await withCalls(ctx, (calls) => calls.openUrl(link));
  if (outcome.status === 'dialing') {
    return {
      ok: true,
      status: 'dialing',
      message: t('browser.dialing', { display: outcome.target.display }),
    };
  }
  const reason = outcome.pending.reason;
  return refused(
    new CallbarError(
      'needs_confirmation',
      said('errors:browser.nobodyToAsk', { reason: reason ?? said('errors:browser.linksAsk') }),
    ),
    t,
  );
}

export async function serveBrowser(ctx: CommandContext): Promise<void> {
  const profile = await ctx.profile();
  const words = () => cliTranslator(profile.env, profile.policies);
  const services: HostServices = {
    status() {
      const t = words();
      return {
        // The one region source, read now: a country saved in the window applies at once.
        region: profile.region.current(),
        language: t.locale,
        labels: {
          // ICU prints the value as it is: the extension puts each number where this says.
          call: t('browser.callNumber', { number: '{number}' }),
          menu: t('browser.menuTitle'),
        },
      };
    },
    async dial(link) {
      const t = words();
      try {
        const answer = await knockLinkDoor(profile.dataDir, link);
        if (!answer) return await dialHere(ctx, link, t);
        if (!answer.ok) return { ok: false, ...answer.error };
        const key = answer.status === 'dialing' ? 'browser.dialing' : 'browser.asking';
        return { ok: true, status: answer.status, message: t(key, { display: answer.display }) };
      } catch (error) {
        return refused(error, t);
      }
    },
  };
  const ended = await serveNativeHost({
    input: process.stdin,
    output: process.stdout,
    services,
    t: ctx.t,
    log: profile.log,
  });
  // Stopped on a request over the limit: read nothing more of it (the browser sees the host go).
  if (ended === 'too-large') process.stdin.destroy();
}
