// Validation and form decoding cost per request, against baselines measured in the same run:
// the compiled validator against TypeBox's interpreted Value.Check, and both against JSON.parse of the
// same body (what every request pays anyway). decodeForm against URLSearchParams parsing alone.
import { Value } from '@sinclair/typebox/value';
import { createValidator, decodeForm, ENDPOINTS } from '../src/index.js';

const schema = ENDPOINTS.translateText.body;
const texts = Array.from({ length: 50 }, (_, i) => `Sentence number ${i}: the file could not be uploaded.`);
const body = {
  text: texts,
  target_lang: 'DE',
  source_lang: 'EN',
  formality: 'prefer_more',
  glossary_ids: ['0b7e5f5a-0000-4000-8000-000000000001'],
  tag_handling: 'xml',
  ignore_tags: 'x',
  show_billed_characters: true,
};
const json = JSON.stringify(body);
const form = new URLSearchParams([
  ...texts.map((text): [string, string] => ['text', text]),
  ['target_lang', 'DE'],
  ['source_lang', 'EN'],
  ['formality', 'prefer_more'],
  ['glossary_ids', '0b7e5f5a-0000-4000-8000-000000000001'],
  ['show_billed_characters', '1'],
]).toString();

function measure(name: string, run: () => unknown): number {
  for (let i = 0; i < 2_000; i++) run(); // warm up
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 1_000_000_000n) {
    for (let i = 0; i < 500; i++) run();
    iterations += 500;
    elapsed = process.hrtime.bigint() - start;
  }
  const microseconds = Number(elapsed) / 1_000 / iterations;
  console.log(`${name.padEnd(44)} ${microseconds.toFixed(2).padStart(8)} µs/op`);
  return microseconds;
}

const validator = createValidator(schema);
if (!validator.check(body) || !Value.Check(schema, body)) throw new Error('benchmark body must be valid');
console.log(`translate body: ${texts.length} texts, ${json.length} bytes JSON, ${form.length} bytes form`);
const parse = measure('baseline: JSON.parse', () => JSON.parse(json));
const interpreted = measure('baseline: TypeBox Value.Check (interpreted)', () => Value.Check(schema, body));
const compiled = measure('createValidator().validate (compiled)', () => validator.validate(body));
const searchParams = measure('baseline: new URLSearchParams', () => new URLSearchParams(form));
const decoded = measure('decodeForm', () => decodeForm(form, schema));
console.log(`compiled vs interpreted: ${(interpreted / compiled).toFixed(1)}x faster`);
console.log(`validation as a share of JSON.parse: ${((compiled / parse) * 100).toFixed(0)}%`);
console.log(`decodeForm vs URLSearchParams alone: ${(decoded / searchParams).toFixed(2)}x the time`);
