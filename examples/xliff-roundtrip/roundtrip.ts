/**
 * The whole round trip in one command (`pnpm --filter @glossa/example-xliff-roundtrip start`):
 * machine translation, XLIFF export for a translator, the translator's edit (made here by a script,
 * standing in for a CAT tool), import, and a second run that keeps the edit.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '@glossa/cli';

const cwd = import.meta.dirname;
const glossa = async (...args: string[]) => {
  console.log(`\n$ glossa ${args.join(' ')}`);
  const code = await runCli(args, { cwd });
  if (code !== 0) process.exit(code);
};

// Start over each time (the translation cache in .glossa/ is kept, so a rerun sends nothing).
for (const path of ['out', 'xliff', 'glossa.lock'])
  await rm(join(cwd, path), { recursive: true, force: true });

await glossa('translate');
await glossa('xliff', 'export', '--dir', 'xliff');

// The translator fixes one machine translation and marks it final (what a CAT tool writes).
const xliffPath = join(cwd, 'xliff/es.xlf');
const xliff = await readFile(xliffPath, 'utf8');
const edited = xliff.replace(
  /(<unit id="site\/index\.html#p-2">[\s\S]*?<segment) state="translated">([\s\S]*?<target>)[\s\S]*?(<\/target>)/,
  '$1 state="final">$2La tienda abre a las siete y cierra cuando el pan está <pc id="1" dataRefStart="1_o" dataRefEnd="1_c">agotado</pc>.$3',
);
if (edited === xliff) throw new Error('roundtrip: the unit site/index.html#p-2 was not found in the export');
await writeFile(join(cwd, 'xliff/es.reviewed.xlf'), edited);
console.log('\n(translator) edited site/index.html#p-2 in xliff/es.reviewed.xlf');

await glossa('xliff', 'import', 'xliff/es.reviewed.xlf');
await glossa('translate');
const page = await readFile(join(cwd, 'out/es/index.html'), 'utf8');
console.log(
  `\nout/es/index.html keeps the edit:\n${page
    .split('\n')
    .find((line) => line.includes('agotado'))
    ?.trim()}`,
);
