import type { Page } from 'playwright-core';

/**
 * The visible text nodes under `root` (a CSS selector), whitespace collapsed and trimmed, in document order;
 * text inside `script, style, noscript` and inside `skip` (a CSS selector, when given) left out.
 */
export function visibleText(page: Page, root: string, skip?: string): Promise<string[]> {
  const hidden = ['script', 'style', 'noscript', ...(skip ? [skip] : [])].join(', ');
  // A string: this package's type check has no DOM library.
  return page.evaluate<string[]>(`(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector(${JSON.stringify(root)}), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\\s+/g, ' ').trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest(${JSON.stringify(hidden)})) continue;
      const rect = parent.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      out.push(text);
    }
    return out;
  })()`);
}
