// `npm ci … 2>&1 | node scripts/install-notices.mjs` (scripts/setup.sh): prints npm's output as
// it comes, except the EBADENGINE warnings of Electron's own tools, five lines each, which say the
// same thing every install: these packages (the Electron binary's download and the installers'
// native rebuild, docs/development.md#versions-chosen) declare Node 22.12+, while Callbar declares
// Node 20.19+. They become one sentence naming them. Any other EBADENGINE warning, and every other
// line, passes through whole. Node's built-ins only: node_modules is being installed.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** Electron's install and packaging tools; everything else Callbar uses accepts its Node. */
export const ELECTRON_TOOLS = new Set([
  'electron',
  '@electron/get',
  '@electron-internal/extract-zip',
  '@electron/rebuild',
  'node-abi',
]);

const BLOCK_START = /^npm warn EBADENGINE Unsupported engine \{\s*$/;
const BLOCK_END = /^npm warn EBADENGINE \}\s*$/;
const PACKAGE = /package: '((?:@[^/']+\/)?[^@']+)@([^']+)'/;
const REQUIRED = /required: \{ node: '([^']+)'/;

/**
 * Filters npm's output, line by line: `write` gets each line to print, and at the end the one
 * sentence about Electron's tools (if npm warned about any).
 */
export async function filterInstallOutput(lines, write) {
  const tools = [];
  let block;
  for await (const line of lines) {
    if (block) {
      block.push(line);
      if (!BLOCK_END.test(line)) continue;
      const text = block.join('\n');
      const [, name, version] = PACKAGE.exec(text) ?? [];
      if (name && ELECTRON_TOOLS.has(name)) {
        tools.push({ name, version, required: REQUIRED.exec(text)?.[1]?.replace(/\s+/g, '') });
      } else {
        for (const kept of block) write(kept);
      }
      block = undefined;
    } else if (BLOCK_START.test(line)) {
      block = [line];
    } else {
      write(line);
    }
  }
  for (const kept of block ?? []) write(kept);
  if (tools.length > 0) {
    const required = [...new Set(tools.map((tool) => tool.required).filter(Boolean))].join(', ');
    write(
      `note: Electron's own tools (${tools
        .map((tool) => `${tool.name} ${tool.version}`)
        .join(
          ', ',
        )}) ask for Node ${required}: they download the Electron binary and build the installers (npm run dist), so do that on Node 22; everything else runs on Node ${process.versions.node} (docs/development.md#versions-chosen).`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await filterInstallOutput(createInterface({ input: process.stdin }), (line) =>
    process.stdout.write(`${line}\n`),
  );
}
