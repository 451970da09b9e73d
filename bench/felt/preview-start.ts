/**
 * Starts the bundled web preview on a profile and times its start: from the spawn to the address
 * printed, and to the first search answered with hits over the preview transport (the same
 * POST /__callbar/invoke/directory.search the page's bridge sends).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ROOT, type FeltBuild } from './build';

export interface RunningPreview {
  url: string;
  origin: string;
  token: string;
  /** spawn → the address printed, ms. */
  addressMs: number;
  /** spawn → the first search answered with hits, ms. */
  firstResultMs: number;
  /**
   * CPU time (user + system, all threads; Linux /proc, 10 ms ticks) the preview spent until then:
   * what a loaded machine's waiting for the CPU leaves out. NaN elsewhere.
   */
  firstResultCpuMs: number;
  /** The process's resident memory now (Linux /proc), MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * The Node the preview runs on: this one, or CALLBAR_BENCH_NODE (e.g. a Node 24 like the one
 * Electron 45 embeds, whose V8 code cache the preview's entry turns on as the app does).
 */
export function previewNode(): string {
  return process.env.CALLBAR_BENCH_NODE || process.execPath;
}

export async function startPreview(
  built: Pick<FeltBuild, 'previewMain' | 'outDir'>,
  env: NodeJS.ProcessEnv,
  firstQuery: string,
  /** Node flags for the preview (the start probe's --cpu-prof). */
  nodeArgs: readonly string[] = [],
): Promise<RunningPreview> {
  const started = performance.now();
  const child: ChildProcess = spawn(
    previewNode(),
    [...nodeArgs, built.previewMain, '--port', '0', '--no-open', '--json'],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, CALLBAR_OUT_DIR: built.outDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done) throw new Error(`the preview exited: ${stderr}`);
    const addressMs = performance.now() - started;
    const { url } = JSON.parse(first.value) as { url: string };
    const origin = new URL(url).origin;
    const token = new URL(url).hash.replace('#token=', '');
    for (;;) {
      const hits = await invokeSearch(origin, token, firstQuery);
      if (hits > 0) break;
      if (performance.now() - started > 60_000) throw new Error('no search answer in 60 s');
    }
    const firstResultMs = performance.now() - started;
    const firstResultCpuMs = cpuMs(child.pid!);
    return {
      url,
      origin,
      token,
      addressMs,
      firstResultMs,
      firstResultCpuMs,
      rssMb: () => {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One search over the preview transport; the number of hits. */
export async function invokeSearch(origin: string, token: string, query: string): Promise<number> {
  const response = await fetch(`${origin}/__callbar/invoke/directory.search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'x-callbar-session': token },
    body: JSON.stringify({ query, limit: 50 }),
  });
  const result = (await response.json()) as { ok: boolean; value?: { hits: unknown[] } };
  return result.ok ? (result.value?.hits.length ?? 0) : 0;
}

/** User + system CPU time of process `pid` so far, ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}
