/**
 * Why a call ended or failed, kept as a catalog key and values (a CallRecord's `reason_said`)
 * beside its English (`call.reason`: logs, `--json`, exports, older readers), and worded where
 * the call is shown: the window's events and answers in the window's language, the CLI's lines
 * in the terminal's. A call another process ended reads in the reader's language too.
 */
import type { Call } from '../../../src-shared/contract';
import { sayWith, type Said, type Translate } from '../text/said';
import { inEnglish, sayAgain } from '../text/translators';
import type { CallRecord } from './call-log-format';

/** Records why `record`'s call ended: its English and, when said by key, the key and values. */
export function setReason(record: CallRecord, reason: string | Said): void {
  if (typeof reason === 'string') {
    record.call.reason = reason;
    delete record.reason_said;
    return;
  }
  record.call.reason = inEnglish(reason);
  record.reason_said = reason;
}

/** The record's call with its reason worded by `words` (none: the English it was stored with). */
export function callInWords(record: CallRecord, words: Translate | undefined): Call {
  const { call } = record;
  if (!words || call.reason === undefined) return call;
  const reason =
    record.reason_said && words.has(record.reason_said.key)
      ? sayWith(words, record.reason_said)
      : sayAgain(words, call.reason);
  return reason === call.reason ? call : { ...call, reason };
}
