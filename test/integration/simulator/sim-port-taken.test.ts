/** `npm run sim` on a port that is taken: a sentence naming the flag to change, exit 1. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

describe('the simulator on a taken port', () => {
  it('says which port is taken and how to choose another', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          join(root, 'node_modules/.bin/tsx'),
          ['simulator/main.ts', '--port', String(port)],
          { cwd: root },
          (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
        );
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain('npm run sim -- --port P');
      expect(result.stderr).toContain('CALLBAR_BASE_URL');
    } finally {
      blocker.close();
    }
  });
});
