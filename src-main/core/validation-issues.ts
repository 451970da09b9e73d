/**
 * A failed zod validation in words: where each problem is and what it is, never the value itself
 * (it may be a token). Shared by the IPC router, the vault and the platform client's input checks.
 */
import type { z } from 'zod';

type Issue = z.ZodError['issues'][number];

/**
 * Set in a custom issue's params when its message says in words what is wrong (a CRM template):
 * the settings' messages quote it instead of their general rule.
 */
export const SAYS_WHY = 'says_why';

/** Set beside SAYS_WHY to the message as a catalog key and values (a Said), to be worded later. */
export const SAID = 'said';

const pathOf = (issue: Issue): string => issue.path.map(String).join('.');

/** "path: message"; an issue about the whole value is named `whole`, or is just the message. */
export function describeIssue(issue: Issue, whole?: string): string {
  const where = issue.path.length > 0 ? pathOf(issue) : whole;
  return where ? `${where}: ${issue.message}` : issue.message;
}

export interface IssuesDescription {
  /** Every issue, described and joined with "; ". */
  message: string;
  /** The full path of the first issue ("owners.0"), if it has one. */
  path: string | undefined;
  /** The top-level property the first issue concerns ("owners"), if any. */
  field: string | undefined;
}

export function describeIssues(error: z.ZodError, whole?: string): IssuesDescription {
  const first = error.issues[0];
  const top = first?.path[0];
  return {
    message: error.issues.map((issue) => describeIssue(issue, whole)).join('; '),
    path: first && first.path.length > 0 ? pathOf(first) : undefined,
    field: typeof top === 'string' ? top : undefined,
  };
}
