import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src-main/core/log/logger';

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
