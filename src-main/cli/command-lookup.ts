/** From the words a user typed to the command they mean, or to what they most likely meant. */
import { said } from '../core/text/said';
import type { CommandSpec } from './command';
import { UsageError } from './command';
import { closestName } from './did-you-mean';

export type Lookup =
  | { kind: 'command'; command: CommandSpec; wordCount: number }
  /** A group's noun alone (`callbar contacts`): show the group's commands. */
  | { kind: 'group'; noun: string; commands: CommandSpec[] };

/** The first word(s) of `words` as a command; a UsageError (with a suggestion) when unknown. */
export function lookupCommand(commands: CommandSpec[], words: string[]): Lookup {
  const [first = '', second] = words;
  const byName = new Map(commands.map((command) => [command.name, command]));
  const two = second === undefined ? undefined : byName.get(`${first} ${second}`);
  if (two) return { kind: 'command', command: two, wordCount: 2 };
  const one = byName.get(first);
  if (one) return { kind: 'command', command: one, wordCount: 1 };

  const group = commands.filter((command) => command.name.startsWith(`${first} `));
  if (group.length > 0 && second === undefined) {
    return { kind: 'group', noun: first, commands: group };
  }
  const twoWords = second === undefined ? undefined : `${first} ${second}`;
  const names = [...byName.keys()];
  const nouns = new Set(
    names.filter((name) => name.includes(' ')).map((name) => name.split(' ')[0]!),
  );
  const words1 = [...names.filter((name) => !name.includes(' ')), ...nouns];
  const suggestion =
    (twoWords === undefined ? undefined : closestName(twoWords, names)) ??
    closestName(first, words1);
  const unknown = group.length > 0 && twoWords !== undefined ? twoWords : first;
  throw new UsageError(
    suggestion
      ? said('cli:usage.unknownCommandSuggest', { command: unknown, suggestion })
      : said('cli:usage.unknownCommand', { command: unknown }),
  );
}
