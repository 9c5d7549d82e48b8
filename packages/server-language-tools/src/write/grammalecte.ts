import { existsSync } from 'node:fs';
import { LineProcess } from './line-process.js';

/**
 * French grammar and spelling with Grammalecte (Debian `grammalecte-cli`, which brings the
 * `python3-grammalecte` library). One long-lived Python process, started on first use, holds the loaded
 * checker and answers one JSON line per JSON line: the same engine `grammalecte-server` runs, over stdio
 * instead of a port.
 */

const PYTHON = '/usr/bin/python3';
const LIBRARY = '/usr/lib/python3/dist-packages/grammalecte/__init__.py';

const WORKER = `
import json, sys
import grammalecte
checker = grammalecte.GrammarChecker("fr")
speller = checker.getSpellChecker()
for line in sys.stdin:
    try:
        request = json.loads(line)
        if "morph" in request:
            sys.stdout.write(json.dumps({"morph": [speller.getMorph(w) for w in request["morph"]]}, ensure_ascii=False) + "\\n")
            sys.stdout.flush()
            continue
        if "suggest" in request:
            found = [s for group in speller.suggest(request["suggest"]) for s in group]
            sys.stdout.write(json.dumps({"suggest": found}, ensure_ascii=False) + "\\n")
            sys.stdout.flush()
            continue
        text = request["text"]
        grammar, spelling = checker.getParagraphErrors(text, bSpellSugg=True)
        answer = {
            "grammar": [{"start": e["nStart"], "end": e["nEnd"], "type": e["sType"], "message": e["sMessage"],
                         "suggestions": list(e["aSuggestions"])} for e in grammar],
            "spelling": [{"start": e["nStart"], "end": e["nEnd"], "type": "spelling", "message": "",
                          "suggestions": list(e.get("aSuggestions", []))} for e in spelling],
        }
    except Exception as error:
        answer = {"error": str(error)}
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\\n")
    sys.stdout.flush()
`;

export interface FrenchError {
  /** Code-point offsets into the text. */
  readonly start: number;
  readonly end: number;
  /** Grammalecte's rule type (`gn` agreement, `ppas` past participle, ...) or `spelling`. */
  readonly type: string;
  readonly message: string;
  readonly suggestions: readonly string[];
}

let worker: LineProcess | undefined;

export function hasGrammalecte(): boolean {
  return existsSync(PYTHON) && existsSync(LIBRARY);
}

/** Grammar and spelling errors of one paragraph of French. */
export async function checkFrench(
  text: string,
): Promise<{ grammar: FrenchError[]; spelling: FrenchError[] }> {
  worker ??= new LineProcess('grammalecte', PYTHON, ['-c', WORKER]);
  const [line] = await worker.request(
    `${JSON.stringify({ text: text.replace(/\n/g, ' ') })}\n`,
    (lines) => lines.length >= 1,
  );
  const answer = JSON.parse(line ?? '{}') as {
    grammar?: FrenchError[];
    spelling?: FrenchError[];
    error?: string;
  };
  if (answer.error !== undefined) throw new Error(`grammalecte failed: ${answer.error}`);
  return { grammar: answer.grammar ?? [], spelling: answer.spelling ?? [] };
}

/** One request to the worker, one JSON answer. */
async function ask<T>(request: unknown): Promise<T & { error?: string }> {
  worker ??= new LineProcess('grammalecte', PYTHON, ['-c', WORKER]);
  const [line] = await worker.request(`${JSON.stringify(request)}\n`, (lines) => lines.length >= 1);
  const answer = JSON.parse(line ?? '{}') as T & { error?: string };
  if (answer.error !== undefined) throw new Error(`grammalecte failed: ${answer.error}`);
  return answer;
}

/**
 * Grammalecte's morphology of each word: per word, its readings as `>lemma/:tags/*` (`:N` noun, `:A` adjective,
 * `:V`… verb, `:Q` past participle, `:Y` infinitive, `:D` determiner; `:m`/`:f`/`:e` gender, `:s`/`:p`/`:i`
 * number), empty for a word it does not know.
 */
export async function frenchMorphology(words: readonly string[]): Promise<string[][]> {
  if (words.length === 0) return [];
  return (await ask<{ morph?: string[][] }>({ morph: words })).morph ?? [];
}

/** Grammalecte's spelling suggestions for one word (also for a word it knows: its neighbours). */
export async function frenchSuggestions(word: string): Promise<string[]> {
  return (await ask<{ suggest?: string[] }>({ suggest: word })).suggest ?? [];
}

export function closeGrammalecte(): void {
  worker?.close();
  worker = undefined;
}
