export { type RunCliOptions, runCli } from './cli.js';
export { GateFailure, UsageError } from './errors.js';
export type { CliIo } from './io.js';
export { openService, type Service } from './service.js';
