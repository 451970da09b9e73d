/** What a run of `npm test` left in its reports folder (scripts/test-report.mjs). */
export declare function counts(reports: string): {
  passed: number;
  failed: number;
  skipped: number;
};

/** The figures the end-to-end hardening specs measured (Playwright annotations). */
export declare function e2eFigures(reports: string): string[];

/** Each failed test or file, one line each. */
export declare function failures(reports: string): string[];
