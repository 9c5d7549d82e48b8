// `pnpm bench`: every core benchmark, one after the other (they share the machine's CPUs).
await import('./billing.js');
await import('./memory.js');
await import('./pool.js');
