import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { evaluateSegment } from '../src/index.js';

it('the readme example prints exactly the output the readme shows', () => {
  const readme = readFileSync(new URL('../readme.md', import.meta.url), 'utf8');
  const shown = /Output:\n\n```\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n');
  const known = new Set(['haga', 'clic', 'en', 'guardar', 'para', 'conservar', 'archivos']);
  const issues = evaluateSegment(
    {
      source: 'Click <b>Save</b> to keep 25 files.',
      translation: 'Haga clic en Guardar para conservar 52 arhcivos',
    },
    { sourceLang: 'en', targetLang: 'es', spelling: (word) => known.has(word.toLowerCase()) },
  );
  expect(issues.map((issue) => JSON.stringify(issue))).toEqual(shown);
});
