import { useEffect, useState } from 'react';
import { Contact } from './Contact';
import { Home } from './Home';
import { Shop } from './Shop';

const ROUTES = { '#/': Home, '#/shop': Shop, '#/contact': Contact } as const;
type Route = keyof typeof ROUTES;

const routeOf = (hash: string): Route => (hash in ROUTES ? (hash as Route) : '#/');

export function App() {
  const [route, setRoute] = useState<Route>(() => routeOf(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', onHash);
    document.body.dataset.ready = 'true';
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const Page = ROUTES[route];
  return (
    <>
      <header>
        <p className="brand" translate="no">
          Glossa Bakery
        </p>
        <nav aria-label="Main navigation">
          <a href="#/" id="nav-home">
            Home
          </a>
          <a href="#/shop" id="nav-shop">
            Shop
          </a>
          <a href="#/contact" id="nav-contact">
            Contact us
          </a>
        </nav>
      </header>
      <main>
        <Page />
      </main>
      <footer>
        <p>
          Baked fresh every morning since 1998. Read our <a href="#/contact">opening hours</a> before you
          visit.
        </p>
      </footer>
    </>
  );
}
