import type { BuildOptions } from 'esbuild';

/** esbuild's options for a Node bundle of this checkout (scripts/node-bundle.mjs). */
export declare const nodeBundleOptions: BuildOptions;

/** esbuild's options for a Node program bundled as one CommonJS script (scripts/node-bundle.mjs). */
export declare const nodeProgramOptions: BuildOptions;

/** The web preview's program, preview.cjs beside its entry (scripts/node-bundle.mjs). */
export declare const previewProgramOptions: BuildOptions;
