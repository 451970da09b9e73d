// `npm run demo`: builds Callbar, then runs it in Electron when the Electron binary is installed,
// otherwise in the web preview (printing the address and opening a browser when there is one).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function electronBinary() {
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

console.log('Building Callbar…');
const build = spawnSync(npm, ['run', '--silent', 'build'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const extra = process.argv.slice(2);
const child = electronBinary()
  ? spawn(npx, ['electron-vite', 'preview', '--', ...extra], { stdio: 'inherit' })
  : spawn(npx, ['tsx', 'src-main/preview/main.ts', ...extra], { stdio: 'inherit' });
if (!electronBinary()) console.log('No Electron binary here: starting the web preview.');
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
