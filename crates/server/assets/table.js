// The table: filled in by the browser client.
