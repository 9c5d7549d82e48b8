/** A page `<title>` that is the project's name (a scaffold's `tsr-app`, the package name) stays as written. */
import { describe, expect, it } from 'vitest';
import { isProjectTitle } from '../src/localize.js';

describe('isProjectTitle', () => {
  it('keeps a lower-case slug of two or more parts and the package name, in <title> only', () => {
    expect(isProjectTitle('index.html#title-1', 'tsr-app')).toBe(true);
    expect(isProjectTitle('index.html#title-1', 'my-vue-app')).toBe(true);
    expect(isProjectTitle('about/index.html#title-1', ' vite_project ')).toBe(true);
    expect(isProjectTitle('index.html#title-1', 'shop', 'shop')).toBe(true);
    expect(isProjectTitle('index.html#title-1', 'shop', '@acme/shop')).toBe(true);
    // Text that describes the page is translated.
    expect(isProjectTitle('index.html#title-1', 'Opening hours')).toBe(false);
    expect(isProjectTitle('index.html#title-1', 'Shop')).toBe(false);
    expect(isProjectTitle('index.html#title-1', 'shop', 'tsr-app')).toBe(false);
    expect(isProjectTitle('index.html#title-1', 'Tsr-App')).toBe(false);
    // The same slug in the body is not a title.
    expect(isProjectTitle('index.html#p-1', 'tsr-app')).toBe(false);
  });
});
