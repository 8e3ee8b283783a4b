// Fair deals: checks a revealed seed in the browser.
