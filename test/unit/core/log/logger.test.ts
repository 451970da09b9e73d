import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFileLogger, createLogger } from '../../../../src-main/core/log/logger';
import { summarizedWarnings } from '../../../../src-main/core/log/summarized-warnings';

describe('logger', () => {
  it('redacts secret-looking fields at any depth', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line));
    log.info('refreshed', {
      access_token: 'AT-123',
      nested: { refreshToken: 'RT-456', list: [{ client_secret: 'CS-789' }] },
      headers: { Authorization: 'Bearer AT-123' },
      extension: '201',
    });
    const text = lines.join('\n');
    for (const secret of ['AT-123', 'RT-456', 'CS-789']) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      level: 'info',
      message: 'refreshed',
      extension: '201',
    });
  });

  it('drops lines below the minimum level', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line), 'warn');
    log.info('quiet');
    log.warn('loud');
    expect(lines).toHaveLength(1);
  });
});

describe('file log rotation', () => {
  it('rotates at the size cap, keeping one old file, and never exceeds it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-log-'));
    try {
      const path = join(dir, 'callbar.log');
      const log = createFileLogger(path, 'info', 4096);
      for (let index = 0; index < 200; index++) log.info('line', { index });
      const current = readFileSync(path, 'utf8');
      const previous = readFileSync(`${path}.1`, 'utf8');
      expect(statSync(path).size).toBeLessThanOrEqual(4096);
      expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(4096);
      expect(readdirSync(dir).sort()).toEqual(['callbar.log', 'callbar.log.1']);
      // The newest lines are kept, whole and in order.
      const indexes = (previous + current)
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { index: number }).index);
      expect(indexes.at(-1)).toBe(199);
      expect(indexes).toEqual(indexes.map((_, i) => indexes[0]! + i));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two loggers on one file (two processes) rotate it once, not twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-log-'));
    try {
      const path = join(dir, 'callbar.log');
      const a = createFileLogger(path, 'info', 2048);
      const b = createFileLogger(path, 'info', 2048);
      for (let index = 0; index < 60; index++) (index % 2 ? a : b).info('line', { index });
      expect(statSync(path).size).toBeLessThanOrEqual(2048);
      const kept = (readFileSync(`${path}.1`, 'utf8') + readFileSync(path, 'utf8'))
        .trim()
        .split('\n').length;
      expect(kept).toBeGreaterThan(2048 / 80);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('two loggers writing in turn (the app and the native host, for days) keep the file within its cap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callbar-log-'));
    try {
      const path = join(dir, 'callbar.log');
      const a = createFileLogger(path, 'info', 2048);
      const b = createFileLogger(path, 'info', 2048);
      let largest = 0;
      for (let index = 0; index < 200; index++) {
        (index % 2 ? a : b).info('line', { index });
        largest = Math.max(
          largest,
          statSync(path).size,
          statSync(`${path}.1`, { throwIfNoEntry: false })?.size ?? 0,
        );
      }
      expect(largest).toBeLessThanOrEqual(2048);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('summarized warnings', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first at once, then one summary with counts per interval', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const warnings = summarizedWarnings(
      createLogger((line) => lines.push(line)),
      'refused more',
      10_000,
    );
    for (let index = 0; index < 5000; index++) {
      warnings.warn(index % 10 === 0 ? '413' : '403', 'refused', { index });
    }
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      message: 'refused more',
      count: 4999,
      by_kind: { '403': 4500, '413': 499 },
    });
    // A quiet period: the next one is written at once again.
    vi.advanceTimersByTime(60_000);
    warnings.warn('403', 'refused');
    expect(lines).toHaveLength(3);
    warnings.flush();
    expect(lines).toHaveLength(3);
  });
});
