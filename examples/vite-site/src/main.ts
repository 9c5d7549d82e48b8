// Runs on every page in every language: the page's language comes from <html lang>.
const button = document.querySelector<HTMLButtonElement>('#greet');
const greeting = document.querySelector<HTMLParagraphElement>('#greeting');
button?.addEventListener('click', () => {
  if (greeting) greeting.textContent = `lang=${document.documentElement.lang}`;
});
document.body.dataset.ready = 'true';
