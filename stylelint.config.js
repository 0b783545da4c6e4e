// Stylelint for the site's style sheets, web/static/site/*.css: `make lint` runs it.
// stylelint-config-standard (its recommended rules find the mistakes: an unknown property or unit, a duplicate
// property, invalid syntax; its conventions keep the notation one), less what fights the sheets' own layout or the
// phones they serve:
"use strict";

module.exports = {
  extends: ["stylelint-config-standard"],
  rules: {
    // One rule a line, its declarations on it (`.move { display: inline-block; margin-left: .25rem; }`), rules of a
    // kind side by side with no blank line between them: the sheets read as tables.
    "declaration-block-single-line-max-declarations": null,
    "rule-empty-line-before": null,
    "comment-empty-line-before": null,
    "at-rule-empty-line-before": null,
    // The sheets are ordered by page and by purpose (a narrow screen's overrides after the rule they change), not
    // by specificity; reordering them to please this rule would move rules across others of equal weight.
    "no-descending-specificity": null,
    // entry.css restates some selectors in its phone-fit part (after "The first screen at 360 x 740") as a layer
    // of overrides; merging them into the first rule would move declarations across others of equal weight.
    "no-duplicate-selectors": null,
    // (max-width: 480px), not (width <= 480px): range syntax needs Safari 16.4, and referees bring older phones.
    "media-feature-range-notation": "prefix",
  },
};
