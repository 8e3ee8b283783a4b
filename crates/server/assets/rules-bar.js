// The rules pages (built by the server, no script of their own): who is signed in, in
// their bar, as on every page.

import { showAccount } from "./account.js";

const nav = document.getElementById("bar-nav");
// The bar's links are text separated by dots; the account's part comes after one more.
nav.append(" · ");
showAccount(nav);
