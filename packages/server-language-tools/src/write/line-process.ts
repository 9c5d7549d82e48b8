import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EngineError } from '@glossa/server/feature';

/**
 * A long-lived child process spoken to in lines: one request written to stdin, its answer read from stdout
 * until `isComplete` says the answer is whole. Requests are answered strictly in order, one at a time.
 * If the process dies, pending requests fail with `EngineError` and the next request starts it again.
 */
export class LineProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  /** Lines still to drop from a freshly started process (its banner). */
  private skip = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private current:
    | {
        readonly lines: string[];
        /** The process the request was written to: only its exit fails the request. */
        readonly owner: ChildProcessWithoutNullStreams;
        readonly isComplete: (lines: readonly string[]) => boolean;
        readonly done: (lines: string[]) => void;
        readonly fail: (error: Error) => void;
      }
    | undefined;

  constructor(
    private readonly name: string,
    private readonly command: string,
    private readonly args: readonly string[],
    private readonly timeoutMs = 30_000,
    /** How many lines the program prints when it starts (a banner), dropped before any answer. */
    private readonly bannerLines = 0,
  ) {}

  /** Writes `input` (which must end with a newline) and resolves with the answer's lines. */
  request(input: string, isComplete: (lines: readonly string[]) => boolean): Promise<string[]> {
    const run = this.queue.then(() => this.send(input, isComplete));
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.child?.kill();
    this.child = undefined;
  }

  private send(input: string, isComplete: (lines: readonly string[]) => boolean): Promise<string[]> {
    const child = this.start();
    return new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.current = undefined;
        this.close();
        reject(new EngineError(`${this.name} did not answer within ${this.timeoutMs} ms`, this.name));
      }, this.timeoutMs);
      const finish = (action: () => void) => {
        clearTimeout(timer);
        this.current = undefined;
        action();
      };
      this.current = {
        lines: [],
        owner: child,
        isComplete,
        done: (lines) => finish(() => resolve(lines)),
        fail: (error) => finish(() => reject(error)),
      };
      child.stdin.write(input);
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child && this.child.exitCode === null) return this.child;
    const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    // An idle helper never keeps the process alive (a CLI with the embedded server must be able to exit);
    // a request in flight does, through its timeout timer.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr])
      (stream as { unref?: () => void }).unref?.();
    let buffer = '';
    this.skip = this.bannerLines;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      // Output of a process that was replaced (timed out, closed) is nobody's answer.
      if (this.child !== child) return;
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const current = this.current;
        if (this.skip > 0) this.skip--;
        else if (current) {
          current.lines.push(line);
          if (current.isComplete(current.lines)) current.done(current.lines);
        }
        newline = buffer.indexOf('\n');
      }
    });
    child.stderr.resume();
    const failed = (cause: unknown) => {
      if (this.child === child) this.child = undefined;
      if (this.current?.owner === child)
        this.current.fail(new EngineError(`${this.name} stopped`, this.name, { cause }));
    };
    child.on('error', failed);
    // Writing to a child that stopped reading (it died, or was killed by a timeout with input still
    // buffered) is an EPIPE on stdin: that fails the request, it must not be an unhandled 'error' event.
    child.stdin.on('error', failed);
    child.on('exit', (code) => failed(new Error(`exit code ${code}`)));
    return child;
  }
}
