// ESLint (flat config) for the site's scripts, web/static/site/*.js: `make lint` runs it.
// They are classic scripts (no modules, no build step) run by the browser as they are; sw.js is the entry page's
// service worker. The recommended rules find the mistakes (an undefined name, an unused variable, a dead branch);
// the layout is left to the files' own style.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  // What is not ours: installed packages (.venv's Django admin, node_modules), built sites and collected files.
  { ignores: [".venv/", "node_modules/", "site/", "staticfiles/"] },
  {
    files: ["web/static/site/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      ...js.configs.recommended.rules,
      strict: ["error", "function"],  // each file says "use strict" for itself
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",  // a top-level var of one script would be every script's
    },
  },
  {
    files: ["web/static/site/sw.js"],
    // A service worker runs alone in its own global scope: its top-level names are its own.
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: { strict: ["error", "global"], "no-implicit-globals": "off" },
  },
  {
    files: ["eslint.config.js", "stylelint.config.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
  },
];
