import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { EngineError } from '../engines/engine.js';

/**
 * A long-lived child process spoken to in lines: one request written to stdin, its answer read from stdout
 * until `isComplete` says the answer is whole. Requests are answered strictly in order, one at a time.
 * If the process dies, pending requests fail with `EngineError` and the next request starts it again.
 */
export class LineProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buffer = '';
  private queue: Promise<unknown> = Promise.resolve();
  private current:
    | {
        readonly lines: string[];
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
    this.buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline = this.buffer.indexOf('\n');
      while (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        const current = this.current;
        if (current) {
          current.lines.push(line);
          if (current.isComplete(current.lines)) current.done(current.lines);
        }
        newline = this.buffer.indexOf('\n');
      }
    });
    child.stderr.resume();
    const failed = (cause: unknown) => {
      if (this.child === child) this.child = undefined;
      this.current?.fail(new EngineError(`${this.name} stopped`, this.name, { cause }));
    };
    child.on('error', failed);
    child.on('exit', (code) => failed(new Error(`exit code ${code}`)));
    return child;
  }
}
