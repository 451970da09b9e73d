/**
 * Every command of the CLI, by group, in the order the help lists them. A new command group is a
 * module under commands/ exporting a CommandGroup, plus one line here.
 */
import type { CommandGroup, CommandSpec } from './command';
import { accountCommands } from './commands/account-commands';
import { browserCommands } from './commands/browser-commands';
import { callCommands } from './commands/call-commands';
import { contactCommands } from './commands/contact-commands';
import { contactTransferCommands } from './commands/contact-transfer-commands';
import { directoryCommands } from './commands/directory-commands';
import { favouriteCommands } from './commands/favourite-commands';
import { phonebookCommands } from './commands/phonebook-commands';
import { policyCommands } from './commands/policy-commands';

export const commandGroups: CommandGroup[] = [
  accountCommands,
  phonebookCommands,
  contactCommands,
  contactTransferCommands,
  directoryCommands,
  favouriteCommands,
  callCommands,
  policyCommands,
  browserCommands,
];

export const allCommands: CommandSpec[] = commandGroups.flatMap((group) => group.commands);
