import { msg } from '@glossa/vite/runtime';
import { useState } from 'react';

const PRODUCTS = [
  { id: 'rye', name: msg`Rye bread`, price: 4 },
  { id: 'roll', name: msg`Butter rolls`, price: 3 },
  { id: 'cake', name: msg`Apple cake`, price: 12 },
];

/** The basket line in the page's language: one form per plural category of that language. */
function basketLine(count: number): string {
  const forms: Record<string, string> = {
    one: msg`${count} loaf in your basket`,
    other: msg`${count} loaves in your basket`,
  };
  const category = new Intl.PluralRules(document.documentElement.lang).select(count);
  return forms[category] ?? forms.other!;
}

export function Shop() {
  const [count, setCount] = useState(0);
  return (
    <section>
      <h1>Our bread</h1>
      <ul>
        {PRODUCTS.map((p) => (
          <li key={p.id}>
            {p.name}: {p.price} €
          </li>
        ))}
      </ul>
      <button type="button" id="add" title="Add one loaf to your basket" onClick={() => setCount(count + 1)}>
        Add to basket
      </button>
      <p id="basket">{count === 0 ? <>Your basket is empty.</> : basketLine(count)}</p>
    </section>
  );
}
