import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addAdminCommands } from './admin-commands.js';

/** Every command under `command`, depth first. */
const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];

describe('the admin commands', () => {
  // Commander refuses a flag declared twice only when the command is built: a mistake there stops the whole CLI.
  it('all build, and each of their flags is declared once', () => {
    const program = new Command('audit-client');
    expect(() => addAdminCommands(program)).not.toThrow();
    const commands = everyCommand(program);
    expect(commands.map((command) => command.name())).toEqual(expect.arrayContaining(['users', 'tokens', 'my-tokens', 'audit-events', 'enrollments']));
    for (const command of commands) {
      const flags = command.options.map((option) => option.long);
      expect(new Set(flags).size, command.name()).toBe(flags.length);
    }
  });
});
