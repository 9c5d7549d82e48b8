// Runs on every page in every language: the page's language comes from <html lang>.
const lang = document.documentElement.lang;
const button = document.querySelector<HTMLButtonElement>('#greet');
const greeting = document.querySelector<HTMLParagraphElement>('#greeting');
button?.addEventListener('click', () => {
  if (greeting) greeting.textContent = `lang=${lang}`;
});

// The app's own strings: the catalog of this language, found through the manifest @glossa/vite emits.
interface Manifest {
  sourceLang: string;
  locales: Record<string, Record<string, string>>;
}
async function loadStrings(): Promise<Record<string, string>> {
  const manifestUrl = new URL('/locales/manifest.json', location.href);
  const manifest = (await (await fetch(manifestUrl)).json()) as Manifest;
  const file = (manifest.locales[lang] ?? manifest.locales[manifest.sourceLang])?.common;
  return file ? (await fetch(new URL(file, manifestUrl))).json() : {};
}

const tagline = document.querySelector<HTMLParagraphElement>('#tagline');
loadStrings()
  .then((strings) => {
    if (tagline) tagline.textContent = strings.tagline ?? '';
  })
  .finally(() => {
    document.body.dataset.ready = 'true';
  });
