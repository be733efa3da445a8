/** Checks on the structure of a markdown report, for tests that cut reports to size. */

/** What is left open at the end: a code fence, or `<details>` outside fences without their end. */
export function leftOpen(markdown: string): string[] {
  let fence: string | undefined;
  let details = 0;
  for (const line of markdown.split('\n')) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence}\`*\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const opening = /^ {0,3}(`{3,})/.exec(line);
    if (opening) fence = opening[1];
    details += (line.match(/<details>/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length;
  }
  return [...(fence !== undefined ? [`fence ${fence}`] : []), ...(details !== 0 ? [`${details} <details>`] : [])];
}

/** The files whose diffs a codemod report shows, by the `<summary>` of each. */
export function diffsShown(markdown: string): string[] {
  return [...markdown.matchAll(/<details><summary><code>([^<]*)<\/code><\/summary>/g)].map((m) => m[1]!);
}

/** The names a "left out" note lists as code. */
export function namedIn(note: string): string[] {
  return [...note.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}
