/**
 * `npm run sim` (simulator/main.ts): prints exactly one JSON line when ready, logs to stderr,
 * registers the integration from flags, and exits 0 on SIGTERM; --help on stdout, errors on stderr.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

/**
 * The simulator in one Node process with tsx's loader. Not tsx's own command: it runs the script in
 * a child and, told SIGTERM, waits 30 ms for the child to say it got the signal, then kills it
 * (SIGKILL) and exits 143 itself; on a loaded machine the child is not scheduled within 30 ms.
 */
const sim = (...args: string[]) =>
  spawn(process.execPath, ['--import', 'tsx', 'simulator/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('the sim CLI', () => {
  it('prints one JSON line, serves, and exits 0 on SIGTERM', async () => {
    const child = sim(
      '--port',
      '0',
      '--contacts',
      '500',
      '--seed',
      '3',
      '--activation-url',
      'http://127.0.0.1:37153/activate',
      '--deactivation-url',
      'http://127.0.0.1:37153/deactivate',
      '--webhook-url',
      'http://127.0.0.1:37153/events',
      '--extra-header',
      'X-Callbar-Secret: abc',
      '--encoding',
      'form',
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const first = await new Promise<string>((resolve, reject) => {
      const reader = createInterface({ input: child.stdout });
      reader.on('line', (line) => {
        lines.push(line);
        if (lines.length === 1) resolve(line);
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const info = JSON.parse(first) as Record<string, unknown>;
    expect(Object.keys(info)).toEqual([
      'base_url',
      'portal_url',
      'client_id',
      'client_secret',
      'tenant_id',
      'profile',
      'users',
    ]);
    expect(info.profile).toBe('rich');
    const base = info.base_url as string;
    const integration = (await (
      await fetch(`${base}/__sim/integrations/callbar`)
    ).json()) as Record<string, unknown>;
    expect(integration).toMatchObject({
      encoding: 'form',
      extra_headers: { 'X-Callbar-Secret': 'abc' },
      webhook_url: 'http://127.0.0.1:37153/events',
    });
    const world = (await (await fetch(`${base}/__sim/world`)).json()) as { contact_count: number };
    expect(world.contact_count).toBe(503);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines).toHaveLength(1);
    expect(stderr).toContain('listening on');
  });

  it('--profile minimal: the start line and the log name it; the integration calls are form-encoded', async () => {
    const child = sim('--port', '0', '--profile', 'minimal');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const info = JSON.parse(first) as { base_url: string; profile: string };
    expect(info.profile).toBe('minimal');
    const integration = (await (
      await fetch(`${info.base_url}/__sim/integrations/callbar`)
    ).json()) as Record<string, unknown>;
    expect(integration).toMatchObject({
      encoding: 'form',
      activation_url: 'http://127.0.0.1:37153/activate',
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('profile minimal');
  });

  it.each([
    [['--port', 'abc'], '--port must be'],
    [['--profile', 'lavish'], '--profile must be rich or minimal or variant'],
  ])('refuses bad flags (%j) with a usage message and exit code 2', async (flags, message) => {
    const child = sim(...flags);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage:');
  });

  it.each([['--help'], ['-h']])(
    '%s prints the usage on stdout (for | less) and exits 0',
    async (flag) => {
      const child = sim(flag);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(stdout).toMatch(/^usage: npm run sim -- /);
      expect(stdout).toContain('--rate-limit-call-control');
      expect(stderr).toBe('');
    },
  );
});
