// The lobby: filled in by the browser client.
