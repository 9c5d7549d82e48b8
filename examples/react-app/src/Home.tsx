import bread from './bread.svg';

export function Home() {
  return (
    <section>
      <h1>Welcome to the corner bakery</h1>
      <img src={bread} alt="A loaf of fresh bread" width="96" height="96" />
      <p id="intro">
        We bake <strong>bread, cakes and pastries</strong> with flour from the local mill.
      </p>
      <p>Every loaf is shaped by hand and baked in a wood oven.</p>
    </section>
  );
}
