// "Did you mean …?": the known name a mistyped one was probably meant to be (a setting's, a command-line flag's).
// Damerau–Levenshtein distance on the names folded to one case and one separator, so that `DATABSE_URL`,
// `database_url`, `DATABASE-URL` and `--jwks_url` all find theirs; short names allow one slip, longer ones two,
// which keeps the shell's own short names (HOME, HOST; PWD, PORT) apart.

const fold = (name: string) => name.toUpperCase().replace(/-/g, '_');

/** Edits (insertion, deletion, substitution, swap of two neighbours) that turn a into b. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known name `given` is a near miss of, or null (also when it is itself one of the known names). */
export function nearMiss(given: string, known: Iterable<string>): string | null {
  const folded = fold(given);
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    if (name === given) return null;
    const d = distance(folded, fold(name));
    const allowed = name.length <= 5 ? 1 : 2;
    if (d <= allowed && (best === null || d < best.distance)) best = { name, distance: d };
  }
  return best?.name ?? null;
}
