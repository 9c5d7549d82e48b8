import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// One Vitest config for the workspace: a project per package that has a `test/` folder.
// Packages resolve each other's `src` through the `@glossa/source` export condition, so no build is needed.
const packageDirs = ['packages', 'plugins', 'examples', 'tests'].flatMap((group) =>
  existsSync(group) ? readdirSync(group).map((name) => join(group, name)) : [],
);

export default defineConfig({
  resolve: { conditions: ['@glossa/source'] },
  ssr: { resolve: { conditions: ['@glossa/source'], externalConditions: ['@glossa/source'] } },
  test: {
    // Two files at a time, also on a 2-core machine (Vitest's default there is one): most of the long files
    // wait on child servers, engines, builds and browsers, not on their own CPU.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: packageDirs
      .filter((dir) => existsSync(join(dir, 'test')))
      .map((dir) => ({
        extends: true,
        test: { name: dir.split('/').pop()!, root: dir, include: ['test/**/*.test.ts'] },
      })),
  },
});
