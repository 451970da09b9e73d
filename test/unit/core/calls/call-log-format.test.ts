import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallLogFile } from '../../../../src-main/core/calls/call-log';
import { EMPTY_CALL_LOG } from '../../../../src-main/core/calls/call-log-format';
import { createLogger } from '../../../../src-main/core/log/logger';

/** A calls.json as Callbar has written it since the log began (format version 1). */
const VERSION_1 = {
  version: 1,
  calls: [
    {
      call: {
        id: 'c1',
        direction: 'outgoing',
        state: 'ended',
        party: { number: '+4312345', display: '+43 1 2345' },
        source: 'ui',
        started_at: '2026-01-02T03:04:05.000Z',
        ended_at: '2026-01-02T03:05:05.000Z',
        leg_ids: ['leg_a'],
        reason: 'You hung up.',
      },
      owner: { tenant_id: 't1', user_extension: '201', base_url: 'https://pbx.example.com' },
      legs: [{ id: 'leg_a', state: 'ended' }],
      started_ms: 1,
      updated_ms: 2,
      news_ms: 2,
      delivery_keys: [],
      events: [],
    },
  ],
  cleared_ms: 0,
  retired_legs: [],
  removed_ids: [],
};

function rig() {
  const dir = mkdtempSync(join(tmpdir(), 'callbar-calllog-'));
  const lines: string[] = [];
  const file = new CallLogFile(
    dir,
    createLogger((line) => lines.push(line), 'debug'),
  );
  return { dir, file, lines };
}

describe('calls.json has its own versioned format', () => {
  it('reads a version 1 file as it was written and writes it back the same', async () => {
    const { file } = rig();
    writeFileSync(file.path, JSON.stringify(VERSION_1));
    const log = file.read();
    expect(log.calls[0]!.call.reason).toBe('You hung up.');
    await file.write(log);
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual(VERSION_1);
  });

  it('keeps a newer version aside whole, says so, and starts a new log', async () => {
    const { dir, file, lines } = rig();
    const future = JSON.stringify({ ...VERSION_1, version: 2 });
    writeFileSync(file.path, future);
    expect(file.read()).toEqual(EMPTY_CALL_LOG);
    const aside = readdirSync(dir).filter((name) => name.startsWith('calls.json.version-2-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(future);
    expect(lines.join('\n')).toContain(
      'the call log was written in format version 2 by a newer Callbar; this one reads up to 1',
    );
    await file.write(EMPTY_CALL_LOG);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(future);
  });

  it('sets a damaged log aside, the newest three such copies kept, none piling up', async () => {
    const { dir, file, lines } = rig();
    const damaged = (n: number) => `{"version": 1, "calls": [{"broken ${n}"`;
    for (let n = 1; n <= 5; n++) {
      writeFileSync(file.path, damaged(n));
      // Each copy is named by its millisecond: the next one comes a millisecond later.
      for (const start = Date.now(); Date.now() === start;);
      expect(file.read()).toEqual(EMPTY_CALL_LOG);
      await file.write(EMPTY_CALL_LOG);
    }
    const aside = readdirSync(dir)
      .filter((name) => name.startsWith('calls.json.damaged-'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .sort();
    expect(aside).toEqual([damaged(3), damaged(4), damaged(5)]);
    expect(lines.filter((line) => line.includes('set aside'))).toHaveLength(5);
  });

  it('sets aside a log too large to read, not writing over it', async () => {
    const { dir, file } = rig();
    // Larger than the 16 MB read into memory (Callbar writes at most 1 MB).
    const large = JSON.stringify({ ...VERSION_1, pad: ' '.repeat(17 * 1024 * 1024) });
    writeFileSync(file.path, large);
    expect(file.read()).toEqual(EMPTY_CALL_LOG);
    await file.write(EMPTY_CALL_LOG);
    const aside = readdirSync(dir).filter((name) => name.startsWith('calls.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(large);
  });
});
