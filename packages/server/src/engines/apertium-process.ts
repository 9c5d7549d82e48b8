/**
 * One long-lived Apertium pipeline for one mode (`eng-spa`), fed in null-flush mode: each segment is
 * written as `[qN]text\n\0` and its translation comes back ending in `\0`, in order. Segments are written
 * as soon as they arrive (the pipeline works on several at once) and matched to callers first in, first
 * out; the numbered superblank `[qN]` must lead each answer, else the pipeline is out of step and stopped.
 *
 * Started lazily on the first segment, stopped after `idleMs` without work, and started again when a
 * segment arrives after it stopped or died. A crash or a stall (no output for `timeoutMs` while work is
 * waiting) fails the waiting segments with an `EngineError` and stops the process; the next call restarts it.
 *
 * The mode's pipeline is the output of `apertium-wblank-mode -z <mode file>` run by bash with `$1 = -g`
 * (generation marks unknown words) and `$2` empty, exactly as the `apertium` wrapper does; the wrapper
 * itself cannot be used because it reads /dev/stdin, which fails for a pipe under Node's spawn.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { EngineError } from './engine.js';

const run = promisify(execFile);

export type ApertiumProcessOptions = (
  | {
      /** Path of the `.mode` file, e.g. `/usr/share/apertium/modes/eng-spa.mode`: its pipeline is run. */
      readonly modeFile: string;
    }
  | {
      /** Instead of a mode: a shell pipeline of Apertium tools in null-flush mode (`lt-proc -z …`), named. */
      readonly command: { readonly name: string; readonly script: string };
    }
) & {
  /** Stop the process after this long without work. */
  readonly idleMs: number;
  /** Fail the waiting segments and stop the process when no output comes for this long. */
  readonly timeoutMs: number;
};

export interface ApertiumProcessStatus {
  readonly mode: string;
  /** Process id of the pipeline's shell (its process group), or undefined when not running. */
  readonly pid: number | undefined;
  /** Segments written and not yet answered. */
  readonly pending: number;
  /** How many times the pipeline has been started. */
  readonly starts: number;
}

interface Waiter {
  /** The superblank written before the segment; its translation must start with it. */
  readonly marker: string;
  resolve(output: string): void;
  reject(error: Error): void;
  /** The caller gave up (aborted); the answer is read and dropped. */
  cancelled: boolean;
}

/**
 * A first-in first-out queue with a head index: `shift` is O(1) (an array's `shift` moves every item, which
 * made 100,000 queued segments quadratic). The consumed part is dropped once it is half of the array, so
 * the array holds at most twice the items waiting.
 */
export class FifoQueue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** Slots held (waiting items and consumed ones not yet dropped), for tests. */
  get capacity(): number {
    return this.#items.length;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns every item, oldest first. */
  drain(): T[] {
    const items = this.#items.slice(this.#head) as T[];
    this.#items = [];
    this.#head = 0;
    return items;
  }
}

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly waiters: FifoQueue<Waiter>;
  /** Output received after the last NUL: the start of the next answer, in the chunks it came in. */
  readonly pieces: string[];
  stderr: string;
  dead: boolean;
  sequence: number;
}

const STDERR_KEEP = 2000;

export class ApertiumProcess {
  readonly mode: string;
  #pipeline: Promise<string> | undefined;
  #running: Running | undefined;
  #starting: Promise<Running> | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #stallTimer: NodeJS.Timeout | undefined;
  #starts = 0;
  #closed = false;

  constructor(private readonly options: ApertiumProcessOptions) {
    this.mode =
      'command' in options
        ? options.command.name
        : options.modeFile.replace(/^.*\//, '').replace(/\.mode$/, '');
  }

  status(): ApertiumProcessStatus {
    const running = this.#running;
    return {
      mode: this.mode,
      pid: running && !running.dead ? running.child.pid : undefined,
      pending: running ? running.waiters.length : 0,
      starts: this.#starts,
    };
  }

  /** Translates one segment already in Apertium stream format (escaped, with blanks). */
  async translate(segment: string, signal?: AbortSignal): Promise<string> {
    if (this.#closed) throw new EngineError(`apertium ${this.mode}: engine is closed`, 'apertium');
    signal?.throwIfAborted();
    const running = await this.#ensureRunning();
    if (running.dead)
      throw new EngineError(`apertium ${this.mode}: pipeline stopped while starting`, 'apertium');
    return new Promise<string>((resolve, reject) => {
      // A numbered superblank leads each segment and must lead its answer: a stage that dies can flush a
      // stray NUL, and the answers would silently shift onto the wrong segments without this check.
      const waiter: Waiter = { marker: `[q${++running.sequence}]`, resolve, reject, cancelled: false };
      if (signal) {
        const onAbort = () => {
          waiter.cancelled = true;
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.resolve = (output) => {
          signal.removeEventListener('abort', onAbort);
          resolve(output);
        };
      }
      running.waiters.push(waiter);
      if (running.waiters.length === 1) this.#armStall(running);
      this.#clearIdle();
      // NUL ends a segment in null-flush mode, so it can never be part of one. Writes of one tick are
      // corked into one, so a batch reaches the pipeline in a few large writes instead of one per segment.
      const stdin = running.child.stdin;
      if (stdin.writableCorked === 0) {
        stdin.cork();
        process.nextTick(() => stdin.uncork());
      }
      stdin.write(waiter.marker + segment.replaceAll('\0', ' ') + '\n\0');
    });
  }

  /** Stops the process now; waiting segments fail. Later calls restart it unless `close()` was called. */
  stop(reason = 'stopped'): void {
    const running = this.#running;
    if (!running) return;
    this.#fail(running, reason);
  }

  close(): void {
    this.#closed = true;
    this.stop('engine closed');
  }

  #pipelineScript(): Promise<string> {
    const options = this.options;
    if ('command' in options) return Promise.resolve(options.command.script);
    this.#pipeline ??= run('apertium-wblank-mode', ['-z', options.modeFile]).then(
      ({ stdout }) => stdout.trim(),
      (error: unknown) => {
        this.#pipeline = undefined;
        throw new EngineError(`apertium ${this.mode}: cannot read the mode's pipeline`, 'apertium', {
          cause: error,
        });
      },
    );
    return this.#pipeline;
  }

  async #ensureRunning(): Promise<Running> {
    if (this.#running && !this.#running.dead) return this.#running;
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<Running> {
    const script = await this.#pipelineScript();
    // detached: the pipeline gets its own process group, so stopping it stops every stage.
    const child = spawn('bash', ['-c', script, 'apertium', '-g', ''], { detached: true, stdio: 'pipe' });
    const running: Running = {
      child,
      waiters: new FifoQueue(),
      pieces: [],
      stderr: '',
      dead: false,
      sequence: 0,
    };
    this.#running = running;
    this.#starts++;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.#onOutput(running, chunk));
    child.stderr.on('data', (chunk: string) => {
      running.stderr = (running.stderr + chunk).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', () => this.#fail(running, 'its input closed'));
    child.stdout.on('error', () => this.#fail(running, 'its output failed'));
    child.stderr.on('error', () => {});
    child.stdout.on('end', () => this.#fail(running, 'its output ended'));
    child.on('exit', (code, sig) => this.#fail(running, `it exited (${sig ?? `code ${code}`})`));
    child.on('error', (error) => this.#fail(running, `it could not run (${error.message})`));
    if (this.#closed) this.#fail(running, 'engine closed');
    return running;
  }

  /**
   * Answers end with a NUL. Only the new chunk is scanned (from the last NUL found in it), and an answer
   * that spans several chunks is joined once when its NUL arrives: linear in the output, however many
   * answers a chunk holds or however many chunks an answer takes.
   */
  #onOutput(running: Running, chunk: string): void {
    let from = 0;
    let end = chunk.indexOf('\0');
    while (end !== -1) {
      const tail = chunk.slice(from, end);
      const output = running.pieces.length === 0 ? tail : running.pieces.join('') + tail;
      running.pieces.length = 0;
      const waiter = running.waiters.peek();
      if (!waiter || !output.startsWith(waiter.marker)) {
        this.#fail(running, 'its output lost step with its input');
        return;
      }
      running.waiters.shift();
      if (!waiter.cancelled) waiter.resolve(output.slice(waiter.marker.length));
      from = end + 1;
      end = chunk.indexOf('\0', from);
    }
    if (from < chunk.length) running.pieces.push(from === 0 ? chunk : chunk.slice(from));
    if (running.waiters.length > 0) this.#armStall(running);
    else {
      this.#clearStall();
      this.#armIdle(running);
    }
  }

  #fail(running: Running, reason: string): void {
    if (running.dead) return;
    running.dead = true;
    if (this.#running === running) {
      this.#running = undefined;
      this.#clearStall();
      this.#clearIdle();
    }
    try {
      if (running.child.pid !== undefined) process.kill(-running.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    const detail = running.stderr.trim();
    const message = `apertium ${this.mode}: pipeline stopped: ${reason}${detail ? `: ${detail}` : ''}`;
    for (const waiter of running.waiters.drain()) {
      if (!waiter.cancelled) waiter.reject(new EngineError(message, 'apertium'));
    }
  }

  #armStall(running: Running): void {
    this.#clearStall();
    this.#stallTimer = setTimeout(
      () => this.#fail(running, `no output for ${this.options.timeoutMs} ms`),
      this.options.timeoutMs,
    );
    this.#stallTimer.unref();
  }

  #clearStall(): void {
    if (this.#stallTimer) clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
  }

  #armIdle(running: Running): void {
    this.#clearIdle();
    this.#idleTimer = setTimeout(() => this.#fail(running, 'idle'), this.options.idleMs);
    this.#idleTimer.unref();
  }

  #clearIdle(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}
