/* How the page prints a number: with a true minus sign, "–" for none. */

/** A score with its sign: "+3", "−2", "0". */
export function signed(n) {
  if (n === null || n === undefined) return "–";
  return n > 0 ? "+" + n : n < 0 ? "−" + -n : "0";
}

/** A number with a true minus sign: "−2". */
export function num(n) {
  if (n === null || n === undefined) return "–";
  return n < 0 ? "−" + -n : String(n);
}
