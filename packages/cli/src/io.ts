/** Where the CLI writes: results to `out` (stdout), progress and problems to `err` (stderr). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether `err` is a terminal (then progress is a redrawn bar, else plain lines). */
  readonly isTTY: boolean;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  isTTY: process.stderr.isTTY === true,
};
