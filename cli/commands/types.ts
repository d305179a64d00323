/** A CLI command: one line of help and what it runs; returns the exit code. */
export interface Command {
  usage: string;
  run(args: string[]): Promise<number>;
}
