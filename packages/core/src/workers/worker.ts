/**
 * The worker side of the pool: imports the task's module (once per thread) and calls the named export
 * with the task's input. The result must be structured-cloneable.
 */
export interface WorkerTask {
  readonly module: string;
  readonly name: string;
  readonly input: unknown;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

export default async function runTask(task: WorkerTask): Promise<unknown> {
  let loading = modules.get(task.module);
  if (!loading) {
    loading = import(task.module) as Promise<Record<string, unknown>>;
    modules.set(task.module, loading);
  }
  const fn = (await loading)[task.name];
  if (typeof fn !== 'function') {
    throw new TypeError(`Worker task: ${task.module} has no exported function '${task.name}'`);
  }
  return await fn(task.input);
}
