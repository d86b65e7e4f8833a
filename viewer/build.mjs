// Builds the page into dist/: viewer.js (src/main.js and everything it imports, the
// @noble libraries included, one file), viewer.css and index.html. The output is
// committed and must be reproducible: CI runs this again and `git diff --exit-code dist`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
mkdirSync(dist, { recursive: true });

// The in-browser engines (src/games/), imported by the page as `viewer-games`.
const games = join(here, 'src/games/index.js');
const alias = {
  name: 'viewer-games',
  setup(b) {
    b.onResolve({ filter: /^viewer-games$/ }, () => ({ path: games }));
  },
};

await build({
  entryPoints: [join(here, 'src/main.js')],
  outfile: join(dist, 'viewer.js'),
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'inline',
  minify: false,
  sourcemap: false,
  logLevel: 'warning',
  plugins: [alias],
  // Comments name files relative to viewer/, wherever the build is run from.
  absWorkingDir: here,
});
copyFileSync(join(here, 'page/style.css'), join(dist, 'viewer.css'));
copyFileSync(join(here, 'page/index.html'), join(dist, 'index.html'));
