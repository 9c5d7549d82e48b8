/**
 * The `glossa` command: `runCli(argv)` parses the arguments (cac), runs the command and returns the
 * exit code: 0 done, 1 the work failed (a failed check, untranslated segments, a service error),
 * 2 bad usage (unknown command or option, a missing or wrong value, a wrong config).
 */
import { cac } from 'cac';
import { initCommand } from './commands/init.js';
import { serveCommand, syncCommand, usageCommand } from './commands/service.js';
import { checkCommand, statusCommand } from './commands/status.js';
import { type CommandEnv, estimateCommand, translateCommand } from './commands/translate.js';
import { xliffExportCommand, xliffImportCommand } from './commands/xliff.js';
import { GateFailure, UsageError } from './errors.js';
import { type CliIo, processIo } from './io.js';

export interface RunCliOptions {
  readonly io?: CliIo;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Stops `serve`. */
  readonly signal?: AbortSignal;
}

const CONFIG = [
  '--config <file>',
  'Config file (default: glossa.config.* next to the inputs or above the working folder)',
] as const;
const TO = [
  '--to <locales>',
  "Target locales, comma-separated (default: the config's targetLocales)",
] as const;
const OUT = [
  '--out <dir>',
  "Output root: outputs go to <out>/<locale>/<path> (default: the config's out, else i18n)",
] as const;
const JSON_FLAG = ['--json', 'Print the result as JSON'] as const;

function program(ctx: CommandEnv, signal: AbortSignal | undefined) {
  const cli = cac('glossa');
  let result: Promise<number> = Promise.resolve(0);
  const set = (p: Promise<number>) => {
    result = p;
  };
  cli
    .command('init', 'Write a starting glossa.config.ts (or .json with --json)')
    .option(...JSON_FLAG)
    .option('--from <locale>', 'Source language (default en)')
    .option(...TO)
    .option('--files <glob>', 'Files to translate (default docs/**/*.md)')
    .option(...OUT)
    .option('--force', 'Overwrite an existing config')
    .action((flags) => set(initCommand(ctx, flags)));
  cli
    .command(
      'translate [...paths]',
      "Translate files, folders or globs (default: the config's files) into each locale",
    )
    .option(...CONFIG)
    .option(...TO)
    .option(...OUT)
    .option(...JSON_FLAG)
    .example('glossa translate docs --to es,en-XA --out i18n')
    .action((paths: string[], flags) => set(translateCommand(ctx, paths, flags)));
  cli
    .command(
      'estimate [...paths]',
      'Requests and billed characters a translate would need, without calling the service',
    )
    .option(...CONFIG)
    .option(...TO)
    .option(...OUT)
    .option(...JSON_FLAG)
    .action((paths: string[], flags) => set(estimateCommand(ctx, paths, flags)));
  cli
    .command('status [...paths]', 'Missing and stale translations, from glossa.lock')
    .option(...CONFIG)
    .option(...TO)
    .option(...OUT)
    .option(...JSON_FLAG)
    .action((paths: string[], flags) => set(statusCommand(ctx, paths, flags)));
  cli
    .command(
      'check [...paths]',
      'CI gate: exit 1 when a translation is missing or stale or fails a QA check; no service calls',
    )
    .option(...CONFIG)
    .option(...TO)
    .option(...OUT)
    .option(...JSON_FLAG)
    .option('--fail-on <severity>', 'Lowest QA severity that fails: minor, major or critical (default major)')
    .action((paths: string[], flags) => set(checkCommand(ctx, paths, flags)));
  cli
    .command('sync', "Create or reuse the config's glossaries, memories and style lists on the service")
    .option(...CONFIG)
    .option(...TO)
    .action((flags) => set(syncCommand(ctx, flags)));
  cli
    .command('usage', 'Characters used this period and the limit')
    .option(...CONFIG)
    .option(...JSON_FLAG)
    .action((flags) => set(usageCommand(ctx, flags)));
  cli
    .command('serve', 'Run @glossa/server until interrupted')
    .option(...CONFIG)
    .option('--port <port>', 'Paid-plan port (default 8080; 0 picks one)')
    .option('--free-port <port>', 'Free-plan port (default 8081; 0 picks one)')
    .option('--host <host>', 'Interface to listen on (default 127.0.0.1)')
    .option('--data-dir <dir>', 'Server data (default GLOSSA_DATA_DIR, else under the user cache folder)')
    .action((flags) => set(serveCommand(ctx, flags, signal)));
  cli
    .command(
      'xliff <action> [...paths]',
      'export: one XLIFF per locale for translators; import <file.xlf>: their edits back',
    )
    .option(...CONFIG)
    .option(...TO)
    .option(...OUT)
    .option('--dir <dir>', 'export: folder for <locale>.xlf (default xliff)')
    .option('--xliff-version <version>', 'export: 1.2 or 2.1 (default 2.1)')
    .example('glossa xliff export docs --to es --dir xliff')
    .example('glossa xliff import xliff/es.xlf docs')
    .action((action: string, paths: string[], flags) => {
      const version = flags.xliffVersion === undefined ? {} : { version: String(flags.xliffVersion) };
      if (action === 'export') set(xliffExportCommand(ctx, paths, { ...flags, ...version }));
      else if (action === 'import') {
        const [file, ...rest] = paths;
        if (file === undefined) throw new UsageError('xliff import: expected the XLIFF file to import');
        set(xliffImportCommand(ctx, file, rest, flags));
      } else throw new UsageError(`xliff: expected 'export' or 'import', got '${action}'`);
    });
  cli.help();
  cli.version('0.1.0');
  return { cli, result: () => result };
}

/** Runs `glossa` with `argv` (without the node and script paths); resolves to the exit code. */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const io = options.io ?? processIo;
  const ctx: CommandEnv = { io, cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env };
  try {
    const { cli, result } = program(ctx, options.signal);
    cli.parse(['node', 'glossa', ...argv], { run: false });
    if (cli.options.help || cli.options.version) return 0;
    if (!cli.matchedCommand) {
      if (argv.length === 0) {
        cli.outputHelp();
        return 2;
      }
      throw new UsageError(`unknown command '${argv[0]}'`);
    }
    await cli.runMatchedCommand();
    return await result();
  } catch (error) {
    return reportError(io, error);
  }
}

function reportError(io: CliIo, error: unknown): number {
  if (error instanceof GateFailure) return 1;
  const e = error as Error;
  if (error instanceof UsageError || e?.name === 'CACError') {
    io.err(`glossa: ${e.message}`);
    io.err('Run `glossa --help` (or `glossa <command> --help`) for usage.');
    return 2;
  }
  io.err(`glossa: ${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`);
  if (process.env.GLOSSA_DEBUG) io.err(String(e?.stack));
  return 1;
}
