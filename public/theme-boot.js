/* global window, document, localStorage */
/*
 * Runs before the first paint (a blocking script in index.html's <head>): the theme this device
 * last used, else the system's, on <html>, so a cold start never paints the other theme.
 * src/ui/theme/theme.ts keeps it afterwards; both read the same key and resolve the same way.
 */
(function () {
  var choice;
  try {
    choice = localStorage.getItem('lb_theme');
  } catch {
    choice = null;
  }
  var system = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var dark = choice === 'dark' || (choice !== 'light' && system);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
})();
