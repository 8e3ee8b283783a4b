// A rating history drawn as an SVG line with its uncertainty band (mean ± one
// uncertainty after each rated game), and the bots' levels as dashed lines across it.
// Drawn here, with no chart library.

const SVG = "http://www.w3.org/2000/svg";

function node(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * The chart of `points` (`{mu, sigma, games}`, oldest first), the game's `bots`
 * (`{level, mu}`) marked across it; `label` names it for screen readers.
 */
export function ratingChart(points, bots, label) {
  const width = 480, height = 200, left = 36, right = 84, top = 10, bottom = 24;
  const values = points.flatMap((p) => [p.mu - p.sigma, p.mu + p.sigma]).concat(bots.map((b) => b.mu));
  let low = Math.floor(Math.min(...values)), high = Math.ceil(Math.max(...values));
  if (high - low < 2) { low -= 1; high += 1; }
  const count = Math.max(points.length, 2);
  const x = (i) => left + (i * (width - left - right)) / (count - 1);
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": label });
  svg.append(node("line", { x1: left, y1: y(low), x2: width - right, y2: y(low), class: "axis" }));
  for (const v of [low, high]) {
    svg.append(node("text", { x: left - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
  }
  // The levels' names from the top down, each at least a line below the one above.
  let lastLabel = -Infinity;
  for (const bot of [...bots].sort((a, b) => b.mu - a.mu)) {
    svg.append(node("line", { x1: left, y1: y(bot.mu), x2: width - right, y2: y(bot.mu), class: "bot-level" }));
    lastLabel = Math.max(y(bot.mu) + 4, lastLabel + 12);
    svg.append(node("text", { x: width - right + 4, y: lastLabel, class: "bot-level-name" }, bot.name));
  }
  const upper = points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`);
  const lower = points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse();
  svg.append(node("polygon", { points: [...upper, ...lower].join(" "), class: "band" }));
  svg.append(node("polyline", { points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" "), class: "line" }));
  points.forEach((p, i) => {
    svg.append(node("line", { x1: x(i), y1: y(p.mu - p.sigma), x2: x(i), y2: y(p.mu + p.sigma), class: "spread" }));
    const dot = node("circle", { cx: x(i), cy: y(p.mu), r: 3, class: "point" });
    dot.append(node("title", {}, `${p.games}: ${p.mu.toFixed(1)} ± ${p.sigma.toFixed(1)}`));
    svg.append(dot);
  });
  return svg;
}
