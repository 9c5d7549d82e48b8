/**
 * The full server (every feature package, as `glossa-server` runs it, with its default memory budget) in a
 * child process for `growth-features.ts`: a paid account with the quality and voice-job alphas, `ready`
 * printed once its language tools have loaded (see packages/server/bench/growth-server.ts).
 */
import { serveForGrowth } from '../../server/bench/growth-server.js';
import { allFeatures, FULL_MEMORY_BUDGET_MB } from '../src/index.js';

await serveForGrowth(
  { memoryBudgetMb: FULL_MEMORY_BUDGET_MB, features: allFeatures() },
  { plan: 'paid', qualityAlpha: true, voiceJobsAlpha: true },
);
