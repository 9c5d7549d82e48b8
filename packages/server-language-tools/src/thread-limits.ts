/**
 * The young generation (V8's new space) of the language tools' worker threads, in MiB
 * (`resourceLimits.maxYoungGenerationSizeMb`). Node's default for a thread is the main thread's (up to 48 MiB
 * of semi-spaces a thread, committed while it allocates); the detection, Harper and quality threads are
 * alive at once in the full server, so a small one keeps their RSS down (issue 31). Objects that survive a
 * scavenge are promoted sooner: a cost in time, not in what a thread can hold (no out-of-memory comes from it).
 */
export const THREAD_YOUNG_GENERATION_MB = 8;
