/** The "never worse" checks (engines/verify.ts) on real outputs: what they catch and what they must let pass. */
import { describe, expect, it } from 'vitest';
import { TERM_END, TERM_START } from '../src/engines/engine.js';
import { markTerms, verifyOutput } from '../src/engines/verify.js';
import { createSourceDetector } from '../src/translate/detect-source.js';

const detector = createSourceDetector();
const check = (source: string, output: string | undefined, targetLang = 'de', extra = {}) =>
  verifyOutput({
    source,
    output,
    sourceLang: 'en',
    targetLang,
    detect: (text, candidates) => detector.detect(text, candidates),
    ...extra,
  });

describe('verifyOutput', () => {
  it('passes good translations, names left as they are, and German full of English product words', async () => {
    expect(
      await check('Open the <g id="1">settings</g> page.', 'Öffne die <g id="1">Einstellungen</g>.'),
    ).toEqual([]);
    expect(await check('Visual Studio Code', 'Visual Studio Code')).toEqual([]);
    expect(
      await check(
        'Run the GitHub Actions workflow with the Node cache and the pnpm store enabled.',
        'Führe den GitHub Actions Workflow mit aktiviertem Node Cache und pnpm Store aus.',
      ),
    ).toEqual([]);
    expect(await check('You have {count} new messages.', 'Sie haben {count} neue Nachrichten.')).toEqual([]);
    expect(
      await check(
        'Save the file before you close the editor.',
        'エディターを閉じる前にファイルを保存してください。',
        'ja',
      ),
    ).toEqual([]);
  });

  it('catches missing, empty, codes, placeholders, echo, length, language, script and glossary problems', async () => {
    expect(await check('Open the settings.', undefined)).toEqual(['the segment is missing from the answer']);
    expect(await check('Open the settings.', '  ')).toEqual(['the translation is empty']);
    expect((await check('Press <x id="1"/> now.', 'Drücke jetzt.'))[0]).toMatch(/inline codes/);
    expect((await check('<g id="1">Open</g> it.', '<g id="1">Öffne</g> <g id="1">es</g>.'))[0]).toMatch(
      /inline codes/,
    );
    expect((await check('You have {count} messages.', 'Sie haben {anzahl} Nachrichten.'))[0]).toMatch(
      /placeholders/,
    );
    const source = 'The cache is cleared when the model changes.';
    expect(await check(source, source)).toEqual(['the source was returned untranslated']);
    expect((await check(source, `${'Der Cache wird geleert. '.repeat(8)}`))[0]).toMatch(/much longer/);
    expect(
      (await check(source, 'The cache is cleared when the model changes, sorry about that.'))[0],
    ).toMatch(/not in the target language/);
    expect((await check(source, 'Le cache est vidé lorsque le modèle change.'))[0]).toMatch(
      /not in the target language/,
    );
    expect(
      (
        await check(
          'Save the file before you close the editor.',
          'Save the file before closing, please.',
          'ja',
        )
      )[0],
    ).toMatch(/not in the target language/);
    expect(
      await check('Open the inbox.', 'Öffne den Eingang.', 'de', {
        terms: [{ source: 'inbox', target: 'Posteingang' }],
      }),
    ).toEqual(['the glossary says "inbox" is "Posteingang"; use it']);
    // An inflected form of the term passes (the last two letters may change).
    expect(
      await check('Open the settings page.', 'Öffne die Einstellungsseite.', 'de', {
        terms: [{ source: 'settings page', target: 'Einstellungsseiten' }],
      }),
    ).toEqual([]);
  });

  it('marks glossary targets outside tags for the post-editing that must skip them', () => {
    expect(
      markTerms(
        'Die <g id="1">Posteingang</g>-Liste: Posteingang.',
        [{ target: 'Posteingang' }],
        TERM_START,
        TERM_END,
      ),
    ).toBe(
      `Die <g id="1">${TERM_START}Posteingang${TERM_END}</g>-Liste: ${TERM_START}Posteingang${TERM_END}.`,
    );
  });
});
