/**
 * Builds the React app with @glossa/vite (component text; real embedded server: Apertium for es, the pseudo
 * engine for en-XA) and uses every locale in real headless Chromium: see examples/vite-site/test/component-app.ts.
 */
import { testComponentApp } from '../../vite-site/test/component-app.js';
import { appConfig } from '../app.config.js';

testComponentApp({ framework: 'React', chunk: 'react', appConfig });
