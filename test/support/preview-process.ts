import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface PreviewProcess {
  url: string;
  origin: string;
  stop(): Promise<void>;
}

/** Starts the web preview exactly as `npm run preview` would, and reads the address it prints. */
export async function startPreviewProcess(env: NodeJS.ProcessEnv = {}): Promise<PreviewProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/preview/main.ts', '--port', '0', '--no-open', '--json'],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`preview exited with ${code}: ${stderr}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return {
    url,
    origin: new URL(url).origin,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
