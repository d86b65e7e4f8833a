// A stand-in for `src/games/index.js` (the in-browser engines, written beside this page)
// for builds made before it lands: it draws no table by itself, so a dropped file shows
// its steps in words and its verification, and `replayer view` pages and the service
// draw from the native replayer's and the service's views. The build (build.mjs) uses
// the real module as soon as it exists.
export function stepViews() {
  const e = new Error('no in-browser engine in this build');
  e.code = 'unsupported_game';
  throw e;
}
