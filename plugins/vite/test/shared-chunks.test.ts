/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are built chunks' source code */
/**
 * Lean locale output: chunks that differ between locales only in strings (and numbers) are shared, with
 * the differences read from each locale's dictionary; anything else stays a copy per locale. The
 * rewritten chunks and dictionaries are run here in Node (`vm`) to check what a page would render.
 */
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParser, parseChunk } from '../src/components/script.js';
import {
  type BuiltChunk,
  type LocaleOutput,
  shareChunks,
  stringDifferences,
} from '../src/components/shared-chunks.js';

beforeAll(() => loadParser());

const chunk = (fileName: string, code: string, modules = 'src/App.tsx'): BuiltChunk => ({
  fileName,
  code,
  modules,
});
const page = (script: string) =>
  `<html><head><script type="module" src="/assets/${script}"></script></head></html>`;
const options = { parse: parseChunk, assetsDir: 'assets', assetsUrl: '/assets/' };

/** Runs a chunk (its `export` dropped) after a locale's dictionary, and returns what it set. */
function run(code: string, dictionary?: string) {
  const context: Record<string, unknown> = {};
  context.globalThis = context;
  if (dictionary) runInNewContext(dictionary, context);
  runInNewContext(code.replace(/import[^;]*from"[^"]*";/g, ''), context);
  return context.out;
}

describe('shareChunks', () => {
  it('shares a chunk that differs in strings, template text and numbers; each locale renders its own', () => {
    const en = chunk(
      'assets/App-en.js',
      'import{j as a}from"./vendor-1.js";out=[a("h1",{children:`Welcome`,line:3}),"Add to cart",`${2} loaves`];',
    );
    const es = chunk(
      'assets/App-es.js',
      'import{j as a}from"./vendor-1.js";out=[a("h1",{children:`Bienvenido`,line:4}),"Añadir","2 panes".slice(0,0)+`${2} panes`];',
    );
    // The last item differs in shape (a call added): es is structural, so a chunk with it is not shared.
    expect(stringDifferences(parseChunk(en.code), parseChunk(es.code))).toBeUndefined();
    const es2 = chunk(
      'assets/App-es2.js',
      'import{j as a}from"./vendor-1.js";out=[a("h1",{children:`Bienvenido`,line:4}),"Añadir al carro",`${2} panes`];',
    );
    const fr = chunk(
      'assets/App-fr.js',
      'import{j as a}from"./vendor-1.js";out=[a("h1",{children:`Bienvenue`,line:3}),"Add to cart",`${2} pains`];',
    );
    const outputs: LocaleOutput[] = [
      {
        locale: 'es',
        files: new Map([
          [es2.fileName, es2.code],
          ['es/index.html', page('App-es2.js')],
        ]),
        chunks: [es2],
      },
      {
        locale: 'fr',
        files: new Map([
          [fr.fileName, fr.code],
          ['fr/index.html', page('App-fr.js')],
        ]),
        chunks: [fr],
      },
    ];
    const shared = shareChunks([en], outputs, options);
    expect(shared.stats).toEqual({ shared: 1, perLocale: 0, copies: 0, lookups: 4 });
    const code = shared.rewrites.get('assets/App-en.js')!;
    // English pages load no dictionary: the chunk gives the English values.
    const h = (tag: string, props: object) => ({ tag, ...props });
    const withJsx = (c: string) => `var a=${h.toString()};${c}`;
    expect(run(withJsx(code))).toEqual([
      { tag: 'h1', children: 'Welcome', line: 3 },
      'Add to cart',
      '2 loaves',
    ]);
    const esFiles = shared.files.get('es')!;
    expect([...esFiles.keys()].sort()).toEqual([
      expect.stringMatching(/^assets\/glossa-text\.es-[\w-]{8}\.js$/),
      'es/index.html',
    ]);
    const esDictionary = [...esFiles].find(([name]) => name.includes('glossa-text'))!;
    expect(esDictionary[1]).toBe('globalThis.__glossa=["Bienvenido",4,"Añadir al carro"," panes"];\n');
    expect(run(withJsx(code), esDictionary[1] as string)).toEqual([
      { tag: 'h1', children: 'Bienvenido', line: 4 },
      'Añadir al carro',
      '2 panes',
    ]);
    // A value the same as English is a hole in that locale's dictionary.
    const frDictionary = [...shared.files.get('fr')!].find(([name]) => name.includes('glossa-text'))!;
    expect(frDictionary[1]).toBe('globalThis.__glossa=["Bienvenue",,," pains"];\n');
    expect(run(withJsx(code), frDictionary[1] as string)).toEqual([
      { tag: 'h1', children: 'Bienvenue', line: 3 },
      'Add to cart',
      '2 pains',
    ]);
    // The locale's page loads its dictionary before the app, and the shared chunk under its English name.
    expect(esFiles.get('es/index.html')).toBe(
      `<html><head><script src="/assets/${esDictionary[0].slice('assets/'.length)}"></script>\n    <script type="module" src="/assets/App-en.js"></script></head></html>`,
    );
  });

  it('writes a text used in several places once, and no English value (a hole; none at the end)', () => {
    const en = chunk('assets/App-en.js', 'out=["Add to cart","Save",["Add to cart"],"Cancel","Back"];');
    const es = chunk(
      'assets/App-es.js',
      'out=["Añadir al carro","Save",["Añadir al carro"],"Cancelar","Back"];',
    );
    const fr = chunk('assets/App-fr.js', 'out=["Ajouter","Enregistrer",["Ajouter"],"Cancel","Retour"];');
    const output = (locale: string, c: BuiltChunk): LocaleOutput => ({
      locale,
      files: new Map([
        [c.fileName, c.code],
        [`${locale}/index.html`, page(c.fileName.slice('assets/'.length))],
      ]),
      chunks: [c],
    });
    const shared = shareChunks([en], [output('es', es), output('fr', fr)], options);
    expect(shared.stats).toEqual({ shared: 1, perLocale: 0, copies: 0, lookups: 5 });
    const code = shared.rewrites.get('assets/App-en.js')!;
    const dictionary = (locale: string) =>
      [...shared.files.get(locale)!].find(([name]) => name.includes('glossa-text'))![1] as string;
    // Entries: [es, fr] = ["Añadir al carro", "Ajouter"] (twice in the chunk), [English, "Enregistrer"],
    // ["Cancelar", English], [English, "Retour"].
    expect(dictionary('es')).toBe('globalThis.__glossa=["Añadir al carro",,"Cancelar"];\n');
    expect(dictionary('fr')).toBe('globalThis.__glossa=["Ajouter","Enregistrer",,"Retour"];\n');
    expect(run(code)).toEqual(['Add to cart', 'Save', ['Add to cart'], 'Cancel', 'Back']);
    expect(run(code, dictionary('es'))).toEqual([
      'Añadir al carro',
      'Save',
      ['Añadir al carro'],
      'Cancelar',
      'Back',
    ]);
    expect(run(code, dictionary('fr'))).toEqual(['Ajouter', 'Enregistrer', ['Ajouter'], 'Cancel', 'Retour']);
  });

  it('looks up only the text of a static-markup string when every locale has the same markup', () => {
    const en = chunk(
      'assets/App-en.js',
      'out=[`<section><h1>Welcome</h1> <img alt="A loaf" width="96"/> <p id="intro">We bake <b>bread</b>.</p></section>`,' +
        '`<p>${1} loaves in <a href="#/">your basket</a></p>`,"<p>Hi <b>there</b></p>"];',
    );
    const es = chunk(
      'assets/App-es.js',
      'out=[`<section><h1>Bienvenido</h1> <img alt="Un pan" width="96"/> <p id="intro">Cocemos <b>pan</b>.</p></section>`,' +
        '`<p>${1} panes en <a href="#/">tu cesta</a></p>`,"<p>Hola <i>ahí</i></p>"];',
    );
    const shared = shareChunks(
      [en],
      [
        {
          locale: 'es',
          files: new Map([
            [es.fileName, es.code],
            ['es/index.html', page('App-es.js')],
          ]),
          chunks: [es],
        },
      ],
      options,
    );
    const code = shared.rewrites.get('assets/App-en.js')!;
    const dictionary = [...shared.files.get('es')!].find(([name]) =>
      name.includes('glossa-text'),
    )![1] as string;
    // The markup stays in the chunk; the third string's markup differs (<b> → <i>), so it is one entry.
    expect(dictionary).toBe(
      'globalThis.__glossa=["Bienvenido","Un pan","Cocemos ","pan"," panes en ","tu cesta","<p>Hola <i>ahí</i></p>"];\n',
    );
    const english = run(en.code);
    expect(run(code)).toEqual(english);
    expect(run(code, dictionary)).toEqual(run(es.code));
  });

  it('keeps a chunk per locale when it differs in more than strings, and names the shared chunks in it', () => {
    const enApp = chunk(
      'assets/App-en.js',
      'import{t}from"./Text-en.js";out=[t,"Home","Shop"];',
      'src/App.tsx',
    );
    const enText = chunk('assets/Text-en.js', 'export const t="Hello";', 'src/text.ts');
    const esApp = chunk(
      'assets/App-es.js',
      'import{t}from"./Text-es.js";out=[t,"Tienda","Casa",1];',
      'src/App.tsx',
    );
    const esText = chunk('assets/Text-es.js', 'export const t="Hola";', 'src/text.ts');
    const shared = shareChunks(
      [enApp, enText],
      [
        {
          locale: 'es',
          files: new Map([
            [esApp.fileName, esApp.code],
            [esText.fileName, esText.code],
            ['es/index.html', page('App-es.js')],
          ]),
          chunks: [esApp, esText],
        },
      ],
      options,
    );
    expect(shared.stats).toEqual({ shared: 1, perLocale: 1, copies: 1, lookups: 1 });
    expect([...shared.rewrites.keys()]).toEqual(['assets/Text-en.js']);
    const files = shared.files.get('es')!;
    expect(files.get('assets/App-es.js')).toBe('import{t}from"./Text-en.js";out=[t,"Tienda","Casa",1];');
    expect(files.has('assets/Text-es.js')).toBe(false);
    expect(files.get('es/index.html')).toContain('<script type="module" src="/assets/App-es.js">');
  });

  it('a locale whose chunk differs in shape keeps its copy; the other locales still share the chunk', () => {
    // TailAdmin's en-XA: the pseudo-locale's closing bracket after a tag is one more child; es differs in text only.
    const en = chunk('assets/App-en.js', 'import{v}from"./Vendor-en.js";out=["Email ","*"];');
    const vendor = (f: string) => chunk(f, 'export const v=1;', 'node_modules/lib.js');
    const es = chunk('assets/App-es.js', 'import{v}from"./Vendor-es.js";out=["Correo ","*"];');
    const xa = chunk('assets/App-xa.js', 'import{v}from"./Vendor-xa.js";out=["[Éɱååîîļ ","*","]"];');
    const output = (locale: string, app: BuiltChunk, vendorFile: string): LocaleOutput => ({
      locale,
      files: new Map([
        [app.fileName, app.code],
        [vendorFile, 'export const v=1;'],
        [`${locale}/index.html`, page(app.fileName.slice('assets/'.length))],
      ]),
      chunks: [app, vendor(vendorFile)],
    });
    const shared = shareChunks(
      [en, vendor('assets/Vendor-en.js')],
      [output('es', es, 'assets/Vendor-es.js'), output('en-XA', xa, 'assets/Vendor-xa.js')],
      options,
    );
    expect(shared.stats).toEqual({ shared: 2, perLocale: 0, copies: 1, lookups: 1 });
    const app = shared.rewrites.get('assets/App-en.js')!;
    const esFiles = shared.files.get('es')!;
    const xaFiles = shared.files.get('en-XA')!;
    // es: no chunk of its own, its page loads the English chunk and its dictionary.
    expect([...esFiles.keys()].filter((f) => f.endsWith('.js') && !f.includes('glossa-text'))).toEqual([]);
    expect(esFiles.get('es/index.html')).toContain('src="/assets/App-en.js"');
    const esDictionary = [...esFiles].find(([f]) => f.includes('glossa-text.es'))![1] as string;
    expect(run(app, esDictionary)).toEqual(['Correo ', '*']);
    expect(run(app)).toEqual(['Email ', '*']);
    // en-XA: its own app chunk (naming the shared vendor chunk), as its build made it.
    expect(xaFiles.get('assets/App-xa.js')).toBe('import{v}from"./Vendor-en.js";out=["[Éɱååîîļ ","*","]"];');
    expect(xaFiles.has('assets/Vendor-xa.js')).toBe(false);
    expect(xaFiles.get('en-XA/index.html')).toContain('src="/assets/App-xa.js"');
    // Its dictionary would be all `null`: none is written, none is loaded.
    expect([...xaFiles.keys()].some((f) => f.includes('glossa-text'))).toBe(false);
    expect(xaFiles.get('en-XA/index.html')).not.toContain('glossa-text');
  });

  it("shares a chunk whose expression one locale reorders: that locale's expression is a variant in it (RealWorld's footer)", () => {
    // es moves the link after its text (one more child); en-XA differs in text only; esbuild names es's locals apart.
    const pad = `pad="${'x'.repeat(1200)}";`; // the variant stays under a tenth of the chunk
    const en = chunk(
      'assets/index-en.js',
      `import{v}from"./vendor-en.js";const h=(t,c)=>[t,c];out=h("span",[h("a","Real world app")," implementation using Vue"]);${pad}`,
      'src/main.ts',
    );
    const es = chunk(
      'assets/index-es.js',
      `import{v}from"./vendor-es.js";const k=(t,c)=>[t,c];out=k("span",["Implementación de ",k("a","aplicación mundial real")," que utiliza Vue"]);${pad}`,
      'src/main.ts',
    );
    const xa = chunk(
      'assets/index-xa.js',
      `import{v}from"./vendor-xa.js";const h=(t,c)=>[t,c];out=h("span",[h("a","[Ŕéåļ ŵöŕļð åþþ")," îɱþļéɱéñţåţîöñ ûšîñĝ Vue]"]);${pad}`,
      'src/main.ts',
    );
    // A lazy route chunk imports the entry chunk by its file name.
    const route = (f: string, entry: string, text: string) =>
      chunk(f, `import{t}from"./${entry}";route=t(${JSON.stringify(text)});`, 'src/Login.vue');
    const vendor = (f: string) => chunk(f, 'export const v=1;', 'node_modules/vue.js');
    const output = (locale: string, entry: BuiltChunk, tag: string, text: string): LocaleOutput => {
      const chunks = [
        entry,
        vendor(`assets/vendor-${tag}.js`),
        route(`assets/Login-${tag}.js`, `index-${tag}.js`, text),
      ];
      return {
        locale,
        files: new Map([
          ...chunks.map((c): [string, string] => [c.fileName, c.code]),
          [`${locale}/index.html`, page(`index-${tag}.js`)],
        ]),
        chunks,
      };
    };
    const shared = shareChunks(
      [en, vendor('assets/vendor-en.js'), route('assets/Login-en.js', 'index-en.js', 'Sign in')],
      [output('es', es, 'es', 'Iniciar sesión'), output('en-XA', xa, 'xa', '[Šîĝñ îñ]')],
      options,
    );
    // Nothing stays a copy: the entry chunk is shared, so the route chunk that names it is too.
    expect(shared.stats.copies).toBe(0);
    expect(shared.stats.shared).toBe(3);
    const app = shared.rewrites.get('assets/index-en.js')!;
    // The variant is es's expression with es's local name written as the English chunk's.
    expect(app).toContain('"Implementación de ",h("a","aplicación mundial real")');
    expect(app).not.toMatch(/\bk\(/);
    const dictionary = (locale: string) =>
      [...shared.files.get(locale)!].find(([f]) => f.includes(`glossa-text.${locale}`))![1] as string;
    for (const locale of ['es', 'en-XA']) {
      const files = shared.files.get(locale)!;
      expect([...files.keys()].filter((f) => f.endsWith('.js') && !f.includes('glossa-text'))).toEqual([]);
      expect(files.get(`${locale}/index.html`)).toContain('src="/assets/index-en.js"');
    }
    expect(run(app, dictionary('es'))).toEqual([
      'span',
      ['Implementación de ', ['a', 'aplicación mundial real'], ' que utiliza Vue'],
    ]);
    expect(run(app, dictionary('en-XA'))).toEqual([
      'span',
      [['a', '[Ŕéåļ ŵöŕļð åþþ'], ' îɱþļéɱéñţåţîöñ ûšîñĝ Vue]'],
    ]);
    expect(run(app)).toEqual(['span', [['a', 'Real world app'], ' implementation using Vue']]);
  });

  it('makes a variant only of a whole array, object, call or template, with every local name paired', () => {
    const diff = (a: string, b: string) => stringDifferences(parseChunk(a), parseChunk(b), b);
    expect(diff('let a=1;f(a,[a,"x"])', 'let u=1;f(u,["y",u])')).toEqual([
      { kind: 'variant', start: 12, end: 19, english: 0, value: '["y",a]' },
    ]);
    // Without the source text (or when a name in it has no pair: `w` is nowhere else) it is not shared.
    expect(stringDifferences(parseChunk('f([g(),"x"])'), parseChunk('f(["y",g()])'))).toBeUndefined();
    expect(diff('let a=1;f(a,[a])', 'let u=1;f(u,[w,u])')).toBeUndefined();
    // A shorthand property's key is its name; an optional chain would stop elsewhere.
    expect(diff('let a=1;f(a,{a})', 'let u=1;f(u,{u,b:1})')).toBeUndefined();
    expect(diff('x=a?.b(1).c', 'x=a?.b(1,2).c')).toBeUndefined();
    // An assignment's target is no expression to choose.
    expect(diff('let a=1;a=2', 'let a=1;[a]=[2]')).toBeUndefined();
  });

  it('does not look up keys, module specifiers or directives: a chunk that differs there is not shared', () => {
    const diff = (a: string, b: string) => stringDifferences(parseChunk(a), parseChunk(b));
    expect(diff('x={"Home":1}', 'x={"Casa":1}')).toBeUndefined();
    expect(diff('import"./a.js"', 'import"./b.js"')).toBeUndefined();
    expect(diff('"use strict";x=1', '"use asm";x=1')).toBeUndefined();
    expect(diff('x=/a/', 'x=/b/')).toBeUndefined();
    expect(diff('x={["Home"]:1}', 'x={["Casa"]:1}')).toEqual([
      { kind: 'literal', start: 4, end: 10, english: 'Home', value: 'Casa' },
    ]);
    expect(diff('x=`a${1}b`', 'x=`c${1}b`')).toEqual([
      { kind: 'quasi', start: 3, end: 4, english: 'a', value: 'c' },
    ]);
    // Local names may differ one to one (esbuild names them by the file's characters); property names may not.
    expect(diff('let a=1,b=a;f(a,b,"Hi")', 'let u=1,b=u;f(u,b,"Hola")')).toHaveLength(1);
    expect(diff('let a=1,b=2;f(a,b)', 'let u=1,b=2;f(u,u)')).toBeUndefined();
    expect(diff('let a=1,b=2;f(a,b)', 'let b=1,a=2;f(b,b)')).toBeUndefined();
    expect(diff('x.a=1', 'x.u=1')).toBeUndefined();
  });
});
