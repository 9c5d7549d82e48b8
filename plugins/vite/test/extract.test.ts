/** Component extraction with the real parsers (oxc through Vite, vue/compiler-sfc, svelte/compiler). */
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  extractComponent,
  type KeyedUnit,
  localizeModule,
  prepareComponent,
  prepareModule,
  scriptOptionsOf,
} from '../src/components/extract.js';
import { ComponentSyntaxError, loadParser, localeLinkEdits } from '../src/components/script.js';
import { applyEdits, isTranslatable } from '../src/components/units.js';
import { componentPath } from '../src/plugin.js';

const options = scriptOptionsOf({});
const sources = (units: KeyedUnit[]) => units.map((u) => u.source);
const ranges = (code: string, units: KeyedUnit[]) => units.map((u) => code.slice(u.start, u.end));

describe('JSX and TSX', () => {
  const app = `import { msg } from '@glossa/vite/runtime';
export function App({ name, count }: { name: string; count: number }) {
  const saved = msg\`Saved \${count} files\`;
  const marked = /* @glossa */ 'Marked string';
  const plain = 'not marked';
  return (
    <main title="Main area">
      <h1>Hello {name}, welcome &amp; enjoy</h1>
      <p>
        Read the <a href="/docs">documentation</a> before
        you <b>start</b>.
      </p>
      <input placeholder={"Your e-mail"} className="btn-primary" />
      {count > 0 && <span>You have {count} items</span>}
      <Card icon={<Icon label="Star icon" />}>Card text</Card>
      <code>npm install</code>
      <p translate="no">Brand Name</p>
      <div data-glossa-ignore>Ignored text</div>
      <button onClick={() => 1}>user_id</button>
      <p>{/* a comment */}</p>
    </main>
  );
}`;

  it('extracts text with expressions and inline elements as codes, attributes, tags and marked strings', async () => {
    const units = await extractComponent('src/App.tsx', app, options);
    expect(sources(units)).toEqual([
      'Saved <x id="1"/> files',
      'Marked string',
      'Main area',
      'Hello <x id="1"/>, welcome &amp; enjoy',
      'Read the <g id="1">documentation</g> before you <g id="2">start</g>.',
      'Your e-mail',
      'You have <x id="1"/> items',
      'Star icon',
      'Card text',
    ]);
    expect(ranges(app, units)[4]).toBe(
      'Read the <a href="/docs">documentation</a> before\n        you <b>start</b>.',
    );
    expect(units[3]!.position).toMatchObject({ line: 8, column: 11 });
    expect(units[3]!.key).toMatch(/^src\/App\.tsx#[0-9a-f]{12}$/);
  });

  it('reads links side by side with no text between them as items, each its own unit', async () => {
    const nav = `export const Nav = () => (
  <nav>
    <a href="#/">Home</a> <a href="#/shop">Shop</a>
    <a href="#/contact">Contact us</a>
  </nav>
);
export const P = () => <p><a href="#/">Home</a> or <a href="#/shop">the shop</a></p>;`;
    expect(sources(await extractComponent('src/Nav.tsx', nav, options))).toEqual([
      'Home',
      'Shop',
      'Contact us',
      '<g id="1">Home</g> or <g id="2">the shop</g>',
    ]);
  });

  it('writes targets back so the module still compiles, escaping what the syntax needs', async () => {
    const units = await extractComponent('src/App.tsx', app, options);
    const targets = new Map<string, string>([
      [units[0]!.key, 'Guardados <x id="1"/> archivos `${x}`'],
      [units[1]!.key, "Cadena 'marcada'"],
      [units[2]!.key, 'Zona "principal"'],
      [units[3]!.key, '¡Hola <x id="1"/>! {bienvenido} &lt;y&gt; disfruta'],
      [units[4]!.key, 'Lee la <g id="1">documentación</g> antes de <g id="2">empezar</g>.'],
    ]);
    const { code, problems } = localizeModule(app, units, (key) => targets.get(key));
    expect(problems).toEqual([]);
    expect(code).toContain('msg`Guardados ${count} archivos \\`\\${x}\\``');
    expect(code).toContain("/* @glossa */ 'Cadena \\'marcada\\''");
    expect(code).toContain('<main title="Zona &quot;principal&quot;">');
    expect(code).toContain('<h1>¡Hola {name}! &#123;bienvenido&#125; &lt;y&gt; disfruta</h1>');
    expect(code).toContain('Lee la <a href="/docs">documentación</a> antes de <b>empezar</b>.');
    // It compiles, and the text renders as the target says.
    const out = (await transformWithOxc(code, 'App.tsx', { jsx: { runtime: 'classic' } })).code;
    expect(out).toContain('"¡Hola "');
    expect(out).toContain('"! {bienvenido} <y> disfruta"');
    expect(out).toContain('title: "Zona \\"principal\\""');
  });

  it('drops white space a target puts between tags that touch in the source (a JSX child of its own)', async () => {
    const note = `export const Note = () => (
  <span className="block space-x-1">
    <span className="name">
      Terry Franci
    </span>
    <span> requests permission to change</span>
    <span className="name">
      Project - Nganter App
    </span>
  </span>
);`;
    const units = await extractComponent('src/Note.tsx', note, options);
    expect(sources(units)).toEqual([
      '<g id="1">Terry Franci</g><g id="2"> requests permission to change</g><g id="3">Project - Nganter App</g>',
    ]);
    const target =
      '<g id="1">Terry Franci</g> <g id="2">pide permiso para cambiar</g>  <g id="3">Proyecto - Nganter</g>';
    const { code, problems } = localizeModule(note, units, () => target);
    expect(problems).toEqual([]);
    expect(code).toContain('</span><span>pide permiso para cambiar</span><span className="name">');
    const out = (await transformWithOxc(code, 'Note.tsx', { jsx: { runtime: 'classic' } })).code;
    const english = (await transformWithOxc(note, 'Note.tsx', { jsx: { runtime: 'classic' } })).code;
    const shape = (c: string) => c.replace(/"[^"]*"/g, 'S');
    expect(shape(out)).toBe(shape(english));
  });

  it("puts a pseudo-locale's bracket outside the first or last tag inside it (no child of its own)", async () => {
    const form = `export const Form = () => (
  <div>
    <label>Email <span className="req">*</span></label>
    <p><a href="/signup">Sign up</a> now</p>
    <span className="block"><span><b>Terry</b><i> asks</i></span><span><b>Project</b><i /><i>now</i></span></span>
  </div>
);`;
    const units = await extractComponent('src/Form.tsx', form, options);
    expect(sources(units)).toEqual([
      'Email <g id="1">*</g>',
      '<g id="1">Sign up</g> now',
      '<g id="1"><g id="2">Terry</g><g id="3"> asks</g></g><g id="4"><g id="5">Project</g><x id="6"/><g id="7">now</g></g>',
    ]);
    const targets = new Map([
      [units[0]!.key, '[Éɱååîîļ <g id="1">*</g>]'],
      [units[1]!.key, '[<g id="1">Šîîĝñ ûþ</g> ñöŵ]'],
      // The pseudo engine brackets each block: inside the outer tags, around the inner ones.
      [
        units[2]!.key,
        '<g id="1">[<g id="2">Ţéŕŕý</g><g id="3"> ååšķš</g>]</g><g id="4">[<g id="5">Þŕöĵéçţ</g><x id="6"/><g id="7">ñöŵ</g>]</g>',
      ],
    ]);
    const { code, problems } = localizeModule(form, units, (k) => targets.get(k));
    expect(problems).toEqual([]);
    expect(code).toContain('<label>[Éɱååîîļ <span className="req">*]</span></label>');
    expect(code).toContain('<p><a href="/signup">[Šîîĝñ ûþ</a> ñöŵ]</p>');
    expect(code).toContain(
      '<span><b>[Ţéŕŕý</b><i> ååšķš]</i></span><span><b>[Þŕöĵéçţ</b><i /><i>ñöŵ]</i></span>',
    );
    const shape = (c: string) => c.replace(/"[^"]*"/g, 'S');
    const compile = async (c: string) =>
      (await transformWithOxc(c, 'Form.tsx', { jsx: { runtime: 'classic' } })).code;
    expect(shape(await compile(code))).toBe(shape(await compile(form)));
  });

  it('keeps the source where a target drops or invents a code, and says where', async () => {
    const units = await extractComponent('src/App.tsx', app, options);
    const target = (key: string) => (key === units[3]!.key ? 'Hola, bienvenido' : undefined);
    const { code, problems } = localizeModule(app, units, target);
    expect(code).toBe(app);
    expect(problems).toEqual([
      { key: units[3]!.key, position: units[3]!.position, reason: expect.stringMatching(/missing x#1/) },
    ]);
  });

  it('parses plain modules only when they hold a tag or a marker; reports syntax errors with a position', async () => {
    expect(await extractComponent('src/util.ts', "export const a = 'Hello there';", options)).toEqual([]);
    const tagged = await extractComponent('src/labels.ts', 'export const a = msg`Hello there`;', options);
    expect(sources(tagged)).toEqual(['Hello there']);
    const error = await extractComponent('src/Bad.tsx', 'const a = <p>Hi</b>;', options).catch((e) => e);
    expect(error).toBeInstanceOf(ComponentSyntaxError);
    expect(error.message).toMatch(/^src\/Bad\.tsx:1:\d+: /);
  });
});

describe('Vue and Svelte', () => {
  it('extracts a Vue template (interpolations as codes, static attributes) and its script tags', async () => {
    const sfc = `<script setup lang="ts">
import { msg } from '@glossa/vite/runtime';
const n = 2;
const s = msg\`Two \${n} things\`;
</script>
<template>
  <div>
    <p title="A tip">Hi {{ n }} <b>there</b> &amp; you</p>
    <input placeholder="Type here" :title="dynamic" />
    <ul><li v-for="i in 3" :key="i">Item {{ i }}</li></ul>
    <pre>keep   this</pre>
  </div>
</template>`;
    const units = await extractComponent('src/App.vue', sfc, options);
    expect(sources(units)).toEqual([
      'Two <x id="1"/> things',
      'A tip',
      'Hi <x id="1"/> <g id="2">there</g> &amp; you',
      'Type here',
      'Item',
    ]);
    const target = new Map([[units[2]!.key, 'Hola <x id="1"/> <g id="2">allí</g> {y} tú']]);
    const { code } = localizeModule(sfc, units, (k) => target.get(k));
    expect(code).toContain('<p title="A tip">Hola {{ n }} <b>allí</b> &#123;y&#125; tú</p>');
  });

  it('extracts Svelte markup, blocks as their own containers, and script tags', async () => {
    const component = `<script lang="ts">
  import { msg } from '@glossa/vite/runtime';
  let n = $state(0);
  const s = msg\`Count is \${n}\`;
</script>
<h1 title="Big title">Hello {n} <em>world</em></h1>
{#if n > 1}<p>Many clicks</p>{:else}<p>Few clicks</p>{/if}
<input placeholder="Name please" />`;
    const units = await extractComponent('src/App.svelte', component, options);
    expect(sources(units)).toEqual([
      'Count is',
      'Big title',
      'Hello <x id="1"/> <g id="2">world</g>',
      'Many clicks',
      'Few clicks',
      'Name please',
    ]);
    expect(ranges(component, units)[0]).toBe('Count is');
  });
});

describe('what is not translated', () => {
  it.each([
    ['user_id', false],
    ['fooBar', false],
    ['btn-primary', false],
    ['/about', false],
    ['https://example.com', false],
    ['index.html', false],
    ['h1', false],
    ['42', false],
    ['…', false],
    ['Save', true],
    ['Save.', true],
    ['e-mail', false], // lower-case kebab-case reads as a class name
    ['E-mail', true],
    ['Read more', true],
    ['3rd', true],
    ['K', false], // a shortcut's key (`⌘ K`)
    ['⌘K', false],
    ['(a)', false],
    ['OK', true],
  ])('%s → %s', (text, expected) => {
    expect(isTranslatable(text)).toBe(expected);
  });
});

describe('props, data and strings in text', () => {
  it('JSX: props named like UI text, properties of data literals, strings of ternaries and logical expressions', async () => {
    const app = `const navLinks = [
  { label: 'Dashboard', path: '/' },
  { title: "Orders", icon: 'cart', pageTitle: 'All orders' },
];
const config = { method: 'POST', type: 'text', id: 'save-button' };
export function App({ favorited, error }: { favorited: boolean; error?: string }) {
  return (
    <main>
      <Alert title="Success Message" message="Be cautious when you edit." linkText="Learn more" variant="success" />
      <Tabs items={[{ label: 'Overview' }, { label: 'Settings' }]} />
      <button title={favorited ? 'Remove from favorites' : 'Add to favorites'}>
        {favorited ? 'Unfavorite' : 'Favorite'}
      </button>
      <p>{error || 'Everything saved'}</p>
      <p>{favorited && 'Saved to your list'}</p>
      <p>City/State</p>
      <h3>#1 Tailwind CSS Dashboard</h3>
      <a href="#top">#top</a>
    </main>
  );
}`;
    const units = await extractComponent('src/App.tsx', app, options);
    expect(sources(units)).toEqual([
      'Dashboard',
      'Orders',
      'All orders',
      'Success Message',
      'Be cautious when you edit.',
      'Learn more',
      'Overview',
      'Settings',
      'Remove from favorites',
      'Add to favorites',
      'Unfavorite',
      'Favorite',
      'Everything saved',
      'Saved to your list',
      'City/State',
      '#1 Tailwind CSS Dashboard',
    ]);
    const targets = new Map(units.map((u) => [u.key, `«${u.source}»`]));
    const { code, problems } = localizeModule(app, units, (k) => targets.get(k));
    expect(problems).toEqual([]);
    expect(code).toContain(`{ label: '«Dashboard»', path: '/' }`);
    expect(code).toContain(`{favorited ? '«Unfavorite»' : '«Favorite»'}`);
    expect(code).toContain(`title={favorited ? '«Remove from favorites»' : '«Add to favorites»'}`);
    expect(code).toContain(`message="«Be cautious when you edit.»"`);
    expect(code).toContain(`variant="success"`);
    expect(code).toContain(`{ method: 'POST', type: 'text', id: 'save-button' }`);
  });

  it('a plain module with data literals; the names are configurable', async () => {
    const data = `export const cards = [{ heading: 'Total revenue', hint: 'Last 30 days' }, { name: 'Sales' }];\n`;
    expect(sources(await extractComponent('src/data.ts', data, options))).toEqual([
      'Total revenue',
      'Last 30 days',
    ]);
    const custom = scriptOptionsOf({ attributes: ['name'] });
    expect(sources(await extractComponent('src/data.ts', data, custom))).toEqual(['Sales']);
  });

  it("a router's code-split parts of a file are its modules too; other queries are not", () => {
    expect(componentPath('/app/src/routes/index.tsx')).toBe('/app/src/routes/index.tsx');
    expect(componentPath('/app/src/routes/index.tsx?tsr-split=component')).toBe('/app/src/routes/index.tsx');
    expect(componentPath('/app/src/routes/about.tsx?tsr-split=loader---component')).toBe(
      '/app/src/routes/about.tsx',
    );
    expect(componentPath('/app/src/routes/index.tsx?tsr-shared=1')).toBe('/app/src/routes/index.tsx');
    for (const id of [
      '/app/src/App.vue?vue&type=script&lang.ts',
      '/app/src/a.ts?raw',
      '/app/src/w.ts?worker',
    ]) {
      expect(componentPath(id)).toBeUndefined();
    }
  });

  it("in a locale build, a JSX link to the app's routes points into the locale's folder", async () => {
    await loadParser();
    const app = `export const App = () => (
  <main>
    <a href="/about" className="btn">About</a>
    <a href={'/'}>Home</a>
    <a href="/docs?x=1#top">Docs</a>
    <a href="/es/about">Already</a>
    <a href="/report.pdf">File</a>
    <a href="/page.html">Page</a>
    <a href="https://tanstack.com/router">Out</a>
    <a href="//cdn.example/x">Cdn</a>
    <a href="#top">Top</a>
    <a href="./here">Relative</a>
    <Link to="/about" href="/about">Router</Link>
    <link href="/style.css" />
  </main>
);`;
    const folders = ['es/', 'en-XA/'];
    const out = applyEdits(app, localeLinkEdits(app, 'tsx', '/', 'es/', folders));
    for (const href of ['"/es/about"', "{'/es/'}", '"/es/docs?x=1#top"', '"/es/page.html"']) {
      expect(out).toContain(`href=${href}`);
    }
    for (const kept of [
      '/es/about">Already',
      '/report.pdf',
      'https://tanstack.com/router',
      '//cdn.example/x',
      '#top',
      './here',
    ]) {
      expect(out).toContain(kept);
    }
    expect(out).toContain('<Link to="/about" href="/about">');
    expect(out).toContain('<link href="/style.css" />');
    expect(out).not.toContain('/es/es/');
    // Under a base path only links inside it move.
    const based = `const A = () => <p><a href="/app/about">In</a><a href="/other">Out</a></p>;`;
    expect(applyEdits(based, localeLinkEdits(based, 'jsx', '/app/', 'es/', folders))).toBe(
      `const A = () => <p><a href="/app/es/about">In</a><a href="/other">Out</a></p>;`,
    );
  });

  it('data arrays: tuples by the names the code renders them under, links by their name', async () => {
    const app = `const features = [
  ['Type-Safe Routing', 'Routes and links stay in sync.'],
  ['Server Functions', 'Call server code from your UI.'],
] as const;
const routes = [['home', '/'], ['Settings page', '/settings']];
const navigation = [
  { name: 'Team', href: '/team', current: true },
  { name: 'Open projects', to: '/projects' },
  { name: 'github', href: 'https://github.com/x' },
];
const sidebar = [
  { icon: <GridIcon />, name: 'Dashboard', subItems: [{ name: 'Ecommerce', path: '/', pro: false }] },
  { icon: <CalenderIcon />, name: 'User Profile', path: '/profile' },
];
const router = [{ path: '/about', name: 'About', component: About }];
const routes2 = [{ path: '/old', name: 'Old', redirect: '/new' }, { path: '/x', name: 'X', children: [] }];
const fields = [{ name: 'email', type: 'email' }];
export function App() {
  return (
    <main>
      {features.map(([title, desc], i) => <article key={title}><h2>{title}</h2><p>{desc}</p></article>)}
      {routes.map(([id, href]) => <a key={id} href={href}>{id}</a>)}
      {[['Fast', 'fast-icon']].map(([label, icon]) => <i className={icon}>{label}</i>)}
      <ul>{['Home', 'About us'].map((label) => <li>{label}</li>)}</ul>
      <ul>{['btn-primary', 'Not text'].map((className) => <li className={className} />)}</ul>
      {[['Ignored', 'Pair']].forEach(([key, value]) => use(key, value))}
    </main>
  );
}`;
    const units = await extractComponent('src/App.tsx', app, options);
    expect(sources(units)).toEqual([
      'Type-Safe Routing',
      'Routes and links stay in sync.',
      'Server Functions',
      'Call server code from your UI.',
      'Team',
      'Open projects',
      'Dashboard',
      'Ecommerce',
      'User Profile',
      'Fast',
      'Home',
      'About us',
    ]);
    const targets = new Map(units.map((u) => [u.key, `«${u.source}»`]));
    const { code, problems } = localizeModule(app, units, (k) => targets.get(k));
    expect(problems).toEqual([]);
    expect(code).toContain(`['«Type-Safe Routing»', '«Routes and links stay in sync.»'],`);
    expect(code).toContain(`[['home', '/'], ['Settings page', '/settings']]`);
    expect(code).toContain(`{ name: '«Team»', href: '/team', current: true }`);
    expect(code).toContain(`{ name: 'github', href: 'https://github.com/x' }`);
    expect(code).toContain(`{ path: '/about', name: 'About', component: About }`);
    expect(code).toContain(
      `{ path: '/old', name: 'Old', redirect: '/new' }, { path: '/x', name: 'X', children: [] }`,
    );
    expect(code).toContain(`name: '«Dashboard»', subItems: [{ name: '«Ecommerce»', path: '/', pro: false }]`);
    expect(code).toContain(`{ icon: <CalenderIcon />, name: '«User Profile»', path: '/profile' }`);
    expect(code).toContain(`[['«Fast»', 'fast-icon']]`);
    expect(code).toContain(`['btn-primary', 'Not text']`);
  });

  it('Vue and Svelte: props by convention and strings of ternaries in text', async () => {
    const sfc = `<template>
  <AppCard sub-title="Monthly report" link-text="Open it" class="card-primary" />
  <HelloWorld msg="You did it!" error-msg="Try again" />
  <button>{{ favorited ? 'Unfavorite' : 'Favorite' }} Article</button>
</template>`;
    const vue = await extractComponent('src/Card.vue', sfc, options);
    expect(sources(vue)).toEqual([
      'Monthly report',
      'Open it',
      'You did it!',
      'Try again',
      'Unfavorite',
      'Favorite',
      'Article',
    ]);
    const targets = new Map(vue.map((u) => [u.key, `«${u.source}»`]));
    expect(localizeModule(sfc, vue, (k) => targets.get(k)).code).toContain(
      `{{ favorited ? '«Unfavorite»' : '«Favorite»' }} «Article»`,
    );
  });

  it('Vue: a string ternary in text is translated with the rest of its sentence, one sentence per branch', async () => {
    const sfc = `<template>
  <button class="btn"><i class="ion-heart"></i> {{ favorited ? 'Unfavorite' : 'Favorite' }} Article <span>({{ count }})</span></button>
  <p>{{ open ? 'Close' : 'Open' }}</p>
  <ul><li v-for="t in tags">{{ t.state === "on" ? 'Hide' : 'Show' }} tag</li></ul>
</template>`;
    const prepared = await prepareComponent('src/Fav.vue', sfc, options);
    expect(prepared).toContain(
      `<button class="btn"><template v-if="favorited"><i class="ion-heart"></i> Unfavorite Article <span>({{ count }})</span></template><template v-else><i class="ion-heart"></i> Favorite Article <span>({{ count }})</span></template></button>`,
    );
    // No other text beside it: the strings stay units of their own, the module as it was.
    expect(prepared).toContain(`<p>{{ open ? 'Close' : 'Open' }}</p>`);
    expect(prepared).toContain(
      `<li v-for="t in tags"><template v-if='t.state === "on"'>Hide tag</template><template v-else>Show tag</template></li>`,
    );
    const units = await extractComponent('src/Fav.vue', prepared, options);
    expect(sources(units)).toEqual([
      'Unfavorite Article <g id="1">(<x id="2"/>)</g>',
      'Favorite Article <g id="1">(<x id="2"/>)</g>',
      'Close',
      'Open',
      'Hide tag',
      'Show tag',
    ]);
    const { compileTemplate } = await import('vue/compiler-sfc');
    const template = prepared.slice(prepared.indexOf('<template>') + 10, prepared.lastIndexOf('</template>'));
    expect(compileTemplate({ source: template, filename: 'Fav.vue', id: 'x' }).errors).toEqual([]);
    const targets = new Map(units.map((u) => [u.key, `«${u.source}»`]));
    expect(localizeModule(prepared, units, (k) => targets.get(k)).code).toContain('«Unfavorite Article');
    expect(
      await prepareComponent('src/Plain.vue', '<template><p>{{ a ? b : c }} items</p></template>', options),
    ).toBe('<template><p>{{ a ? b : c }} items</p></template>');
  });

  it('JSX: a string ternary in text is translated with the rest of its sentence, and renders as before', async () => {
    const app = `function App({ favorited, count, open, n }: { favorited: boolean; count: number; open: boolean; n: number }) {
  return (
    <main>
      <button className="btn">
        <i className="ion-heart" /> {favorited ? 'Unfavorite' : 'Favorite'} Article <span>({count})</span>
      </button>
      <p>{open ? 'Close' : 'Open'}</p>
      <p>
        You have {n === 1 ? "one item" : 'a few items & <more>'} in
        your cart.
      </p>
      <p>
        {open ? 'Hide' : 'Show'}
        details
      </p>
    </main>
  );
}`;
    const prepared = await prepareComponent('src/Fav.tsx', app, options);
    expect(prepared).toContain(
      `<button className="btn">
        {favorited ? <><i className="ion-heart" /> Unfavorite Article <span>({count})</span></> : <><i className="ion-heart" /> Favorite Article <span>({count})</span></>}
      </button>`,
    );
    // No other text beside it: the strings stay units of their own.
    expect(prepared).toContain(`<p>{open ? 'Close' : 'Open'}</p>`);
    expect(prepared).toContain(
      `{n === 1 ? <>You have one item in
        your cart.</> : <>You have a few items &amp; &lt;more&gt; in
        your cart.</>}`,
    );
    // A line break right beside the ternary is dropped by JSX, a space in text is not: left as it is.
    expect(prepared).toContain(`{open ? 'Hide' : 'Show'}\n        details`);
    const units = await extractComponent('src/Fav.tsx', prepared, options);
    expect(sources(units)).toEqual([
      'Unfavorite Article <g id="1">(<x id="2"/>)</g>',
      'Favorite Article <g id="1">(<x id="2"/>)</g>',
      'Close',
      'Open',
      'You have one item in your cart.',
      'You have a few items &amp; &lt;more&gt; in your cart.',
      'Hide',
      'Show',
      'details',
    ]);
    // Both modules render the same markup for every branch (React's createElement semantics).
    const Fragment = Symbol('Fragment');
    type El = { type: unknown; props: Record<string, unknown> | null; children: unknown[] };
    const render = (node: unknown): string => {
      if (Array.isArray(node)) return node.map(render).join('');
      if (node === null || node === undefined || typeof node === 'boolean') return '';
      if (typeof node !== 'object') return String(node);
      const { type, props, children } = node as El;
      const inner = children.map(render).join('');
      if (type === Fragment) return inner;
      const attrs = Object.entries(props ?? {}).map(([k, v]) => ` ${k}="${v}"`);
      return `<${type}${attrs.join('')}>${inner}</${type}>`;
    };
    const React = {
      Fragment,
      createElement: (type: unknown, props: unknown, ...children: unknown[]) => ({ type, props, children }),
    };
    const component = async (code: string) => {
      const js = (await transformWithOxc(code, 'Fav.tsx', { jsx: { runtime: 'classic' } })).code;
      return new Function('React', `${js}\nreturn App;`)(React) as (props: object) => unknown;
    };
    const [before, after] = [await component(app), await component(prepared)];
    for (const favorited of [true, false]) {
      for (const n of [1, 2]) {
        const props = { favorited, count: 3, open: favorited, n };
        expect(render(after(props))).toBe(render(before(props)));
      }
    }
    expect(render(after({ favorited: false, count: 3, open: false, n: 2 }))).toContain(
      'You have a few items & <more> in your cart.',
    );
    const plain = 'const a = <p>{a ? b : c} items</p>;';
    expect(await prepareComponent('src/Plain.jsx', plain, options)).toBe(plain);
  });

  it('Vue and Svelte: a nested string ternary in text is one sentence per branch', async () => {
    const sfc = `<template><p>{{ n === 0 ? 'No' : n === 1 ? "One" : 'A few' }} items left</p></template>`;
    const vue = await prepareComponent('src/Nested.vue', sfc, options);
    expect(vue).toBe(
      `<template><p><template v-if="n === 0">No items left</template><template v-else-if="n === 1">One items left</template><template v-else>A few items left</template></p></template>`,
    );
    expect(sources(await extractComponent('src/Nested.vue', vue, options))).toEqual([
      'No items left',
      'One items left',
      'A few items left',
    ]);
    const { compileTemplate } = await import('vue/compiler-sfc');
    const template = vue.slice(10, vue.lastIndexOf('</template>'));
    expect(compileTemplate({ source: template, filename: 'Nested.vue', id: 'x' }).errors).toEqual([]);
    const component = `<script>let { n } = $props();</script>
<p>{n === 0 ? 'No' : n === 1 ? 'One' : 'A few'} items left</p>`;
    const svelte = await prepareComponent('src/Nested.svelte', component, options);
    expect(svelte).toContain(
      '<p>{#if n === 0}No items left{:else if n === 1}One items left{:else}A few items left{/if}</p>',
    );
    expect(sources(await extractComponent('src/Nested.svelte', svelte, options))).toEqual([
      'No items left',
      'One items left',
      'A few items left',
    ]);
    const { compile } = await import('svelte/compiler');
    expect(compile(svelte, { filename: 'Nested.svelte', generate: 'server' }).js.code).toContain(
      'A few items left',
    );
  });

  it('JSX: a nested string ternary in text is one sentence per branch, and renders as before', async () => {
    const app = `function App({ n, more }: { n: number; more: boolean }) {
  return <p>{n === 0 ? 'No' : n === 1 ? 'One' : more ? 'Many' : 'A few'} items left</p>;
}`;
    const prepared = await prepareComponent('src/Nested.tsx', app, options);
    expect(prepared).toContain(
      '<p>{n === 0 ? <>No items left</> : n === 1 ? <>One items left</> : more ? <>Many items left</> : <>A few items left</>}</p>',
    );
    const units = await extractComponent('src/Nested.tsx', prepared, options);
    expect(sources(units)).toEqual([
      'No items left',
      'One items left',
      'Many items left',
      'A few items left',
    ]);
    const React = {
      Fragment: 'frag',
      createElement: (_: unknown, __: unknown, ...children: unknown[]): string => children.flat().join(''),
    };
    const component = async (code: string) => {
      const js = (await transformWithOxc(code, 'Nested.tsx', { jsx: { runtime: 'classic' } })).code;
      return new Function('React', `${js}\nreturn App;`)(React) as (props: object) => string;
    };
    const [before, after] = [await component(app), await component(prepared)];
    for (const n of [0, 1, 2]) {
      for (const more of [true, false]) expect(after({ n, more })).toBe(before({ n, more }));
    }
  });

  it('Svelte: a string ternary in text is translated with the rest of its sentence', async () => {
    const component = `<script>
  let { favorited, count, tags } = $props();
</script>
<button class="btn"><i class="ion-heart"></i> {favorited ? 'Unfavorite' : 'Favorite'} Article <span>({count})</span></button>
<p>{favorited ? 'Close' : 'Open'}</p>
{#each tags as t}<li>{t.on ? "Hide" : 'Show {all}'} tag</li>{/each}
`;
    const prepared = await prepareComponent('src/Fav.svelte', component, options);
    expect(prepared).toContain(
      `<button class="btn">{#if favorited}<i class="ion-heart"></i> Unfavorite Article <span>({count})</span>{:else}<i class="ion-heart"></i> Favorite Article <span>({count})</span>{/if}</button>`,
    );
    expect(prepared).toContain(`<p>{favorited ? 'Close' : 'Open'}</p>`);
    expect(prepared).toContain('<li>{#if t.on}Hide tag{:else}Show &#123;all&#125; tag{/if}</li>');
    const units = await extractComponent('src/Fav.svelte', prepared, options);
    expect(sources(units)).toEqual([
      'Unfavorite Article <g id="1">(<x id="2"/>)</g>',
      'Favorite Article <g id="1">(<x id="2"/>)</g>',
      'Close',
      'Open',
      'Hide tag',
      'Show {all} tag',
    ]);
    // It compiles, and renders each branch as a whole sentence.
    const { compile } = await import('svelte/compiler');
    const server = compile(prepared, { filename: 'Fav.svelte', generate: 'server' });
    expect(server.js.code).toContain('Unfavorite Article');
    expect(server.js.code).toContain('Show {all} tag');
    const targets = new Map(units.map((u) => [u.key, `«${u.source}»`]));
    expect(localizeModule(prepared, units, (k) => targets.get(k)).code).toContain(
      '{#if favorited}<i class="ion-heart"></i> «Unfavorite Article',
    );
    const plain = '<p>{a ? b : c} items</p>';
    expect(await prepareComponent('src/Plain.svelte', plain, options)).toBe(plain);
  });

  it('the prepared module has a source map: the first branch maps to where its text was', async () => {
    /** The original line and column (0-based) of a generated line and column, from the map's VLQ mappings. */
    const original = (mappings: string, line: number, column: number) => {
      const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const state = [0, 0, 0, 0];
      let found: [number, number] | undefined;
      for (const [l, text] of mappings.split(';').entries()) {
        state[0] = 0;
        for (const segment of text.split(',').filter(Boolean)) {
          const values: number[] = [];
          let value = 0;
          let shift = 0;
          for (const ch of segment) {
            const digit = B64.indexOf(ch);
            value += (digit & 31) << shift;
            if (digit & 32) shift += 5;
            else {
              values.push(value & 1 ? -(value >>> 1) : value >>> 1);
              value = 0;
              shift = 0;
            }
          }
          for (const [i, v] of values.entries()) state[i]! += v;
          if (l === line && state[0]! <= column) found = [state[2]!, state[3]!];
        }
      }
      return found;
    };
    const where = (code: string, text: string) => {
      const at = code.indexOf(text);
      const before = code.slice(0, at).split('\n');
      return [before.length - 1, before.at(-1)!.length] as const;
    };
    const cases = [
      [
        'src/Fav.vue',
        `<template>\n  <p>\n    <button><i></i> {{ fav ? 'Unfavorite' : 'Favorite' }} Article</button>\n  </p>\n</template>\n`,
      ],
      [
        'src/Fav.tsx',
        `export const B = ({ fav }: { fav: boolean }) => (\n  <p>\n    <button><i /> {fav ? 'Unfavorite' : 'Favorite'} Article</button>\n  </p>\n);\n`,
      ],
      ['src/Fav.svelte', `<p>\n  <button><i></i> {fav ? 'Unfavorite' : 'Favorite'} Article</button>\n</p>\n`],
    ] as const;
    for (const [file, code] of cases) {
      const prepared = await prepareModule(`/app/${file}`, file, code, options);
      expect(prepared?.code).toBe(await prepareComponent(file, code, options));
      expect(prepared?.map.sources).toEqual([`/app/${file}`]);
      const [line, column] = where(prepared!.code, ' Article');
      expect(original(prepared!.map.mappings, line, column)).toEqual(where(code, ' Article'));
      const [iLine, iColumn] = where(prepared!.code, '<i');
      expect(original(prepared!.map.mappings, iLine, iColumn)).toEqual(where(code, '<i'));
    }
    expect(
      await prepareModule('/app/src/Plain.tsx', 'src/Plain.tsx', 'const a = <p>Hi</p>;', options),
    ).toBeNull();
  });

  it('Svelte: props by convention and strings of ternaries in text', async () => {
    const svelte = await extractComponent(
      'src/Card.svelte',
      `<Card caption="A quiet harbour" /><p>{open ? 'Close menu' : 'Open menu'}</p>`,
      options,
    );
    expect(sources(svelte)).toEqual(['A quiet harbour', 'Close menu', 'Open menu']);
  });
});
