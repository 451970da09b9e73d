// The floors of the code, as a lint rule (eslint-plugin-boundaries): an import that runs back up a
// floor, or from one process into another it must not know, fails `npm run lint` (and so
// `npm test`). docs/architecture.md draws the same floors; test/integration/scripts/
// lint-layers.test.ts plants upward imports and checks that each one fails.
import boundaries from 'eslint-plugin-boundaries';

/**
 * Core's floors, lowest first. Each entry of a floor is a folder under src-main/core/ or a
 * single file there (`*.ts`); a module may import its own part and any part of a lower floor.
 */
export const CORE_FLOORS = [
  {
    floor: 'ground',
    parts: [
      'errors.ts',
      'clock.ts',
      'validation-issues.ts',
      'stop-signals.ts',
      'package-info.ts',
      'secret-compare.ts',
      'text',
      'log',
      'http',
      'files',
    ],
  },
  { floor: 'numbers', parts: ['numbers'] },
  { floor: 'config, vault', parts: ['config', 'vault'] },
  { floor: 'api', parts: ['api'] },
  { floor: 'relay link', parts: ['relay'] },
  { floor: 'account', parts: ['account'] },
  { floor: 'calls, phonebooks, favourites', parts: ['calls', 'phonebooks', 'favourites'] },
  { floor: 'directory, contacts-io, crm', parts: ['directory', 'contacts-io', 'crm'] },
  {
    floor: 'assembly',
    parts: ['callbar-core.ts', 'profile.ts', 'ipc', 'desktop', 'browser', 'exports'],
  },
];

/** Imports within one floor, named one by one (any other sideways import is refused). */
const SIDEWAYS = {
  // The ground's parts use each other (errors speak through text; the log writes files).
  ground: 'all',
  // An import writes through the directory's pacer and refreshes it.
  'contacts-io': ['directory'],
  // The assembly puts the rest together.
  assembly: 'all',
};

const coreType = (part) => `core/${part.replace(/\.ts$/, '')}`;

const coreElements = CORE_FLOORS.flatMap(({ parts }) =>
  parts.map((part) =>
    part.endsWith('.ts')
      ? { type: coreType(part), pattern: `src-main/core/${part}`, mode: 'file' }
      : { type: coreType(part), pattern: `src-main/core/${part}`, partialMatch: false },
  ),
);

function corePolicies() {
  return CORE_FLOORS.flatMap(({ floor, parts }, index) => {
    const below = CORE_FLOORS.slice(0, index).flatMap((lower) => lower.parts.map(coreType));
    return parts.map((part) => {
      const sideways = SIDEWAYS[floor] ?? SIDEWAYS[part.replace(/\.ts$/, '')] ?? [];
      const beside =
        sideways === 'all' ? parts.map(coreType) : [coreType(part), ...sideways.map(coreType)];
      return {
        from: { element: { type: coreType(part) } },
        allow: { to: { element: { types: { anyOf: [...below, ...beside, 'shared'] } } } },
      };
    });
  });
}

const ALL_CORE = CORE_FLOORS.flatMap(({ parts }) => parts.map(coreType));
const ASSEMBLY = CORE_FLOORS.at(-1).parts.map(coreType);

export const layers = [
  {
    files: [
      'src-main/**/*.{ts,tsx}',
      'src-shared/**/*.ts',
      'src-preload/**/*.ts',
      'src-renderer/**/*.{ts,tsx}',
      'relay/**/*.ts',
    ],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'boundaries/legacy-warnings': false,
      'boundaries/elements': [
        ...coreElements,
        // Anything else in core is on no floor yet: it may import nothing and nothing may import
        // it, until it is given its floor above.
        { type: 'core/unplaced', pattern: 'src-main/core/*.ts', mode: 'file' },
        { type: 'core/unplaced', pattern: 'src-main/core/*', partialMatch: false },
        { type: 'app', pattern: 'src-main/app', partialMatch: false },
        { type: 'cli', pattern: 'src-main/cli', partialMatch: false },
        { type: 'preview', pattern: 'src-main/preview', partialMatch: false },
        { type: 'shared', pattern: 'src-shared', partialMatch: false },
        { type: 'preload', pattern: 'src-preload', partialMatch: false },
        { type: 'renderer', pattern: 'src-renderer', partialMatch: false },
        { type: 'relay-server', pattern: 'relay', partialMatch: false },
        { type: 'package', pattern: 'package.json', mode: 'file' },
        { type: 'resources', pattern: 'resources', partialMatch: false },
        { type: 'extension', pattern: 'browser-extension', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{from.type}} may not import {{to.type}}: an import that runs back up a floor, or ' +
            'into a process this one must not know (see docs/architecture.md, "Floors").',
          policies: [
            ...corePolicies(),
            // Who knows what the package is called and which version it is.
            {
              from: { element: { type: 'core/package-info' } },
              allow: { to: { element: { type: 'package' } } },
            },
            // The extension's identity (its id and host name) is the native host's to know.
            {
              from: { element: { type: 'core/browser' } },
              allow: { to: { element: { type: 'extension' } } },
            },
            // The processes: each starts core and the contract, never another process.
            {
              from: { element: { type: 'app' } },
              allow: {
                to: { element: { types: { anyOf: ['app', 'shared', 'resources', ...ALL_CORE] } } },
              },
            },
            ...['cli', 'preview'].map((process) => ({
              from: { element: { type: process } },
              allow: { to: { element: { types: { anyOf: [process, 'shared', ...ALL_CORE] } } } },
            })),
            {
              from: { element: { type: 'shared' } },
              allow: { to: { element: { type: 'shared' } } },
            },
            ...['preload', 'renderer'].map((process) => ({
              from: { element: { type: process } },
              allow: { to: { element: { types: { anyOf: [process, 'shared'] } } } },
            })),
            // The relay server speaks core's device protocol and uses its primitives, never the
            // desktop's assembly.
            {
              from: { element: { type: 'relay-server' } },
              allow: {
                to: {
                  element: {
                    types: {
                      anyOf: [
                        'relay-server',
                        'shared',
                        ...ALL_CORE.filter((t) => !ASSEMBLY.includes(t)),
                      ],
                    },
                  },
                },
              },
            },
          ],
        },
      ],
    },
  },
];
